import { useSuspenseQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useMemo, useState } from 'react';
import type { Contact } from '../../../../contract/contacts';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { FormError } from '../../../components/form-error';
import { PageHeader } from '../../../components/page-header';
import { inputClass, labelClass } from '../../../components/text-field';
import { contactsQueryOptions } from '../../../lib/contacts';
import { formatInteger, plural } from '../../../lib/format';
import { useDeleteContact } from '../api/delete-contact';
import { contactName } from '../../../lib/contacts';
import { indexContacts, visibleContacts, type ContactSort, type ContactTypeFilter } from '../utils/contact-list';
import { ContactFormDialog } from './contact-form-dialog';
import { ContactsTable } from './contacts-table';
import { ExportContactsButton } from './export-contacts-button';
import { ImportContactsDialog } from './import-contacts-dialog';

type Dialog = { kind: 'add' } | { kind: 'edit'; contact: Contact } | { kind: 'delete'; contact: Contact } | { kind: 'import' } | null;

/**
 * The workspace address book: find a contact by any part of its name, email or company, narrow by
 * type, sort by column, add, edit and delete, and move whole address books in and out as CSV.
 */
export function ContactsPage({ workspaceName }: { workspaceName: string }) {
  const { data: contacts } = useSuspenseQuery(contactsQueryOptions());
  const [query, setQuery] = useState('');
  const [type, setType] = useState<ContactTypeFilter>('all');
  const [sort, setSort] = useState<ContactSort>({ key: 'name', direction: 'ascending' });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [announcement, setAnnouncement] = useState('');
  const remove = useDeleteContact();
  const id = useId();

  // Typing stays responsive with thousands of contacts: the list follows a moment behind the field.
  const deferredQuery = useDeferredValue(query);
  const index = useMemo(() => indexContacts(contacts), [contacts]);
  const shown = useMemo(() => visibleContacts(index, { query: deferredQuery, type, sort }), [index, deferredQuery, type, sort]);
  const filtered = deferredQuery.trim() !== '' || type !== 'all';

  const close = () => setDialog(null);
  const actions = (
    <div className="flex flex-wrap gap-2">
      <Button variant="secondary" onClick={() => setDialog({ kind: 'import' })}>
        Import CSV
      </Button>
      <ExportContactsButton contacts={contacts} workspaceName={workspaceName} />
      <Button onClick={() => setDialog({ kind: 'add' })}>Add contact</Button>
    </div>
  );

  return (
    <>
      <PageHeader
        title="Contacts"
        description="The people and companies you send to, ready to pick as you type their name when you send or invite."
        actions={actions}
      />
      <p role="status" className="sr-only">
        {announcement}
      </p>

      {contacts.length === 0 ? (
        <EmptyState title="No contacts yet">
          Add the people you send to, or import them from a CSV file exported by Google Contacts, Outlook or your CRM. Addresses you type when sending can be
          saved here with one click too.
        </EmptyState>
      ) : (
        <>
          <div role="search" aria-label="Contacts" className="mb-4 flex flex-wrap items-end gap-3">
            <div className="min-w-0 flex-1 basis-64">
              <label htmlFor={`${id}-search`} className={labelClass}>
                Search contacts
              </label>
              <input
                id={`${id}-search`}
                type="search"
                value={query}
                placeholder="Name, email or company"
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => setQuery(event.target.value)}
                className={`${inputClass} mt-1`}
              />
            </div>
            <div>
              <label htmlFor={`${id}-type`} className={labelClass}>
                Type
              </label>
              <select
                id={`${id}-type`}
                value={type}
                onChange={(event) => setType(event.target.value as ContactTypeFilter)}
                className={`${inputClass} mt-1 w-auto`}
              >
                <option value="all">All types</option>
                <option value="person">People</option>
                <option value="company">Companies</option>
              </select>
            </div>
          </div>
          <p aria-live="polite" className="mb-2 text-sm text-zinc-600 dark:text-zinc-400">
            {filtered ? `${formatInteger(shown.length)} of ${plural(contacts.length, 'contact', 'contacts')}` : plural(contacts.length, 'contact', 'contacts')}
          </p>
          {shown.length === 0 ? (
            <EmptyState title="No matching contacts">
              {deferredQuery.trim() ? `Nothing matches “${deferredQuery.trim()}”` : 'None of this type'}. Try another name, address or company.
            </EmptyState>
          ) : (
            <ContactsTable
              contacts={shown}
              sort={sort}
              onSort={setSort}
              onEdit={(contact) => setDialog({ kind: 'edit', contact })}
              onDelete={(contact) => {
                remove.reset();
                setDialog({ kind: 'delete', contact });
              }}
            />
          )}
        </>
      )}

      {dialog?.kind === 'add' || dialog?.kind === 'edit' ? (
        <ContactFormDialog
          contact={dialog.kind === 'edit' ? dialog.contact : undefined}
          onClose={close}
          onSaved={(saved) => {
            setAnnouncement(`${dialog.kind === 'edit' ? 'Saved' : 'Added'} ${contactName(saved) || saved.email}.`);
            close();
          }}
        />
      ) : null}
      {dialog?.kind === 'delete' ? (
        <ConfirmDialog
          title="Delete this contact?"
          confirmLabel="Delete contact"
          pendingLabel="Deleting…"
          pending={remove.isPending}
          error={remove.error ? <FormError error={remove.error} /> : null}
          onCancel={close}
          onConfirm={() =>
            remove.mutate(dialog.contact.id, {
              onSuccess: () => {
                setAnnouncement(`Deleted ${contactName(dialog.contact) || dialog.contact.email}.`);
                close();
              },
            })
          }
        >
          {contactName(dialog.contact) ? `${contactName(dialog.contact)} (${dialog.contact.email})` : dialog.contact.email} is removed from the address book.
          Transfers already sent to this address are not affected.
        </ConfirmDialog>
      ) : null}
      {dialog?.kind === 'import' ? <ImportContactsDialog onClose={close} onImported={(summary) => setAnnouncement(summary)} /> : null}
    </>
  );
}
