import { describe, expect, it } from 'vitest';
import type { Contact } from '../../../../contract/contacts';
import { contactListName, indexContacts, visibleContacts, type ContactSort } from './contact-list';
import { contactFixture } from '../../../test/fixtures';

const contact = contactFixture;

const people = [
  contact('ada@example.com', { firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical Engines', updatedAt: '2026-11-03T00:00:00.000Z' }),
  contact('jose@example.es', { firstName: 'José', lastName: 'Núñez', updatedAt: '2026-11-01T00:00:00.000Z' }),
  contact('billing@acme.test', { company: 'Acme', type: 'company', updatedAt: '2026-11-02T00:00:00.000Z' }),
  contact('grace@navy.mil', { firstName: 'Grace', lastName: 'Hopper', company: 'US Navy', updatedAt: '2026-11-04T00:00:00.000Z' }),
];
const index = indexContacts(people);
const byName: ContactSort = { key: 'name', direction: 'ascending' };
const emails = (contacts: Contact[]) => contacts.map((c) => c.email);

describe('contactListName', () => {
  it('names a person First Last, a nameless company by its company, anyone else by email', () => {
    expect(contactListName(people[1]!)).toEqual({ name: 'José Núñez', label: 'José Núñez' });
    expect(contactListName(people[2]!)).toEqual({ name: 'Acme', label: 'Acme' });
    expect(contactListName(contact('x@example.com', { company: 'Initech' }))).toEqual({ name: '', label: 'x@example.com' });
  });
});

describe('visibleContacts', () => {
  it('finds contacts by any part of the name, email or company, every word, accents and case ignored', () => {
    expect(emails(visibleContacts(index, { query: 'nunez', type: 'all', sort: byName }))).toEqual(['jose@example.es']);
    expect(emails(visibleContacts(index, { query: 'ENGINES', type: 'all', sort: byName }))).toEqual(['ada@example.com']);
    expect(emails(visibleContacts(index, { query: 'navy grace', type: 'all', sort: byName }))).toEqual(['grace@navy.mil']);
    expect(emails(visibleContacts(index, { query: 'acme.test', type: 'all', sort: byName }))).toEqual(['billing@acme.test']);
    expect(visibleContacts(index, { query: 'ada hopper', type: 'all', sort: byName })).toEqual([]);
  });

  it('keeps one type when asked', () => {
    expect(emails(visibleContacts(index, { query: '', type: 'company', sort: byName }))).toEqual(['billing@acme.test']);
    expect(visibleContacts(index, { query: '', type: 'person', sort: byName })).toHaveLength(3);
  });

  it('sorts by name as the Name column reads (First Last, else the company or email shown), and by company, email or date', () => {
    // Shown as "Acme", "Ada Lovelace", "Grace Hopper", "José Núñez".
    expect(emails(visibleContacts(index, { query: '', type: 'all', sort: byName }))).toEqual([
      'billing@acme.test',
      'ada@example.com',
      'grace@navy.mil',
      'jose@example.es',
    ]);
    expect(emails(visibleContacts(index, { query: '', type: 'all', sort: { key: 'name', direction: 'descending' } }))).toEqual([
      'jose@example.es',
      'grace@navy.mil',
      'ada@example.com',
      'billing@acme.test',
    ]);
    expect(emails(visibleContacts(index, { query: '', type: 'all', sort: { key: 'company', direction: 'ascending' } }))).toEqual([
      'billing@acme.test',
      'ada@example.com',
      'grace@navy.mil',
      'jose@example.es',
    ]);
    expect(emails(visibleContacts(index, { query: '', type: 'all', sort: { key: 'updatedAt', direction: 'descending' } }))).toEqual([
      'grace@navy.mil',
      'ada@example.com',
      'billing@acme.test',
      'jose@example.es',
    ]);
    expect(emails(visibleContacts(index, { query: '', type: 'all', sort: { key: 'email', direction: 'ascending' } }))[0]).toBe('ada@example.com');
  });
});
