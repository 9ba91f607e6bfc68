import { describe, expect, it } from 'vitest';
import type { Contact } from '../../../contract/contacts';
import { findMatch, matchContacts } from './contact-matches';
import { contactFixture } from '../../test/fixtures';

const contact = (overrides: Partial<Contact>) => contactFixture(overrides.email ?? 'someone@example.com', overrides);

const ada = contact({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@engines.example', company: 'Analytical Engines' });
const grace = contact({ firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.example', company: 'US Navy' });
const lin = contact({ firstName: 'Lin', lastName: 'Ødegård', email: 'lin@example.org', company: 'Cobalt' });
const shirin = contact({ firstName: 'Shirin', lastName: 'Adair', email: 'shirin@example.org' });
const trust = contact({ email: 'accounts@trust.example', company: 'Lovelace Trust', type: 'company' });
const carlos = contact({ firstName: 'Carlos', email: 'carlos@example.org' });

describe('matching contacts', () => {
  it('finds contacts by first name, last name, email or company, ignoring case', () => {
    expect(matchContacts([ada, grace, lin], 'HOP')).toEqual([grace]);
    expect(matchContacts([ada, grace, lin], 'navy')).toEqual([grace]);
    expect(matchContacts([ada, grace, lin], 'engines')).toEqual([ada]);
    expect(matchContacts([ada, grace, lin], 'cobalt')).toEqual([lin]);
  });

  it('ignores accents: "gard" finds Ødegård, "zoe" Zoë and "jose" José', () => {
    expect(matchContacts([lin], 'gard')).toEqual([lin]);
    expect(matchContacts([contact({ firstName: 'Zoë', email: 'zoe@example.org' })], 'zoe')).toHaveLength(1);
    expect(matchContacts([contact({ firstName: 'José', email: 'j@example.org' })], 'jose')).toHaveLength(1);
  });

  it('puts a word of a name or email starting with the text before a company word, before anything merely containing it', () => {
    expect(matchContacts([carlos, trust, ada], 'lo')).toEqual([ada, trust, carlos]);
    // A word of the email counts as a name's: "engines" starts after the @.
    expect(matchContacts([shirin, lin, ada], 'eng')).toEqual([ada]);
    expect(matchContacts([carlos, shirin, ada], 'ad')).toEqual([shirin, ada]);
  });

  it('leaves out addresses already chosen, suggests at most eight, and nothing for an empty text', () => {
    expect(matchContacts([ada, grace], 'a', new Set(['ada@engines.example']))).toEqual([grace]);
    const many = Array.from({ length: 12 }, (_, i) => contact({ firstName: `Ann${i}`, email: `ann${i}@example.org` }));
    expect(matchContacts(many, 'ann')).toHaveLength(8);
    expect(matchContacts([ada], '  ')).toEqual([]);
  });

  it('says where the text was found, in the shown text, preferring a word start', () => {
    expect(findMatch('Shirin Adair', 'ad')).toEqual({ start: 7, end: 9, atWordStart: true });
    expect(findMatch('Shirin', 'rin')).toEqual({ start: 3, end: 6, atWordStart: false });
    expect(findMatch('Ødegård', 'gard')).toEqual({ start: 3, end: 7, atWordStart: false });
    expect(findMatch('Ada', 'x')).toBeNull();
  });
});
