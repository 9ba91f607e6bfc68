import type { Contact } from '../../../../contract/contacts';
import { contactName, foldForSearch } from '../../../lib/contacts';

export type ContactSortKey = 'name' | 'email' | 'company' | 'updatedAt';
export type SortDirection = 'ascending' | 'descending';
export interface ContactSort {
  key: ContactSortKey;
  direction: SortDirection;
}
export type ContactTypeFilter = 'all' | 'person' | 'company';

/** A contact's searchable text (name, email, company), folded once so filtering thousands stays instant. */
export interface IndexedContact {
  contact: Contact;
  haystack: string;
}

export function indexContacts(contacts: Contact[]): IndexedContact[] {
  return contacts.map((contact) => ({ contact, haystack: foldForSearch(`${contactName(contact)}\n${contact.email}\n${contact.company}`) }));
}

/**
 * What the Name column shows for a contact: "First Last", a company's name when it has no person's name,
 * else its email (shown dimmed). `name` is "" in that last case. Sorting by name compares `label`, so the
 * column reads in order.
 */
export function contactListName(contact: Contact): { name: string; label: string } {
  const name = contactName(contact) || (contact.type === 'company' ? contact.company : '');
  return { name, label: name || contact.email };
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Compared as the user's locale orders text ("Émile" beside "Emma"). Empty values sort after everything else, whichever the direction: a blank company is not "first". */
function compareText(a: string, b: string, direction: SortDirection): number {
  if (!a || !b) return a === b ? 0 : a ? -1 : 1;
  const order = collator.compare(a, b);
  return direction === 'ascending' ? order : -order;
}

function sortValue(contact: Contact, key: ContactSortKey): string {
  switch (key) {
    case 'name':
      // Exactly the text the column shows (not the API's last-name order), or the list would look unsorted.
      return contactListName(contact).label;
    case 'email':
      return contact.email;
    case 'company':
      return contact.company;
    case 'updatedAt':
      return contact.updatedAt;
  }
}

/**
 * The contacts the page shows: every word of `query` found in the name, email or company (in any
 * order, accents ignored), of the chosen type, in the chosen order (ties by email, so the order is
 * stable).
 */
export function visibleContacts(index: IndexedContact[], { query, type, sort }: { query: string; type: ContactTypeFilter; sort: ContactSort }): Contact[] {
  const words = foldForSearch(query).split(/\s+/).filter(Boolean);
  const matching = index.filter(({ contact, haystack }) => (type === 'all' || contact.type === type) && words.every((word) => haystack.includes(word)));
  const contacts = matching.map(({ contact }) => contact);
  return contacts.sort((a, b) => {
    const order =
      sort.key === 'updatedAt'
        ? (a.updatedAt < b.updatedAt ? -1 : a.updatedAt > b.updatedAt ? 1 : 0) * (sort.direction === 'ascending' ? 1 : -1)
        : compareText(sortValue(a, sort.key), sortValue(b, sort.key), sort.direction);
    return order || (a.email < b.email ? -1 : a.email > b.email ? 1 : 0);
  });
}
