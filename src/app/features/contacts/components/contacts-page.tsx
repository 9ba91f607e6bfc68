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
import { useIntl } from '../../../lib/intl';
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
  const intl = useIntl();
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
        {intl.formatMessage({ id: 'contacts.page.importCsv', defaultMessage: 'Import CSV' })}
      </Button>
      <ExportContactsButton contacts={contacts} workspaceName={workspaceName} />
      <Button onClick={() => setDialog({ kind: 'add' })}>{intl.formatMessage({ id: 'contacts.page.add', defaultMessage: 'Add contact' })}</Button>
    </div>
  );

  return (
    <>
      <PageHeader
        title={intl.formatMessage({ id: 'contacts.page.title', defaultMessage: 'Contacts' })}
        description={intl.formatMessage({
          id: 'contacts.page.description',
          defaultMessage: 'The people and companies you send to, ready to pick as you type their name when you send or invite.',
        })}
        actions={actions}
      />
      <p role="status" className="sr-only">
        {announcement}
      </p>

      {contacts.length === 0 ? (
        <EmptyState title={intl.formatMessage({ id: 'contacts.page.emptyTitle', defaultMessage: 'No contacts yet' })}>
          {intl.formatMessage({
            id: 'contacts.page.emptyText',
            defaultMessage:
              'Add the people you send to, or import them from a CSV file exported by Google Contacts, Outlook or your CRM. Addresses you type when sending can be saved here with one click too.',
          })}
        </EmptyState>
      ) : (
        <>
          <div role="search" aria-label={intl.formatMessage({ id: 'contacts.page.searchRegion', defaultMessage: 'Contacts' })} className="mb-4 flex flex-wrap items-end gap-3">
            <div className="min-w-0 flex-1 basis-64">
              <label htmlFor={`${id}-search`} className={labelClass}>
                {intl.formatMessage({ id: 'contacts.page.searchLabel', defaultMessage: 'Search contacts' })}
              </label>
              <input
                id={`${id}-search`}
                type="search"
                value={query}
                placeholder={intl.formatMessage({ id: 'contacts.page.searchPlaceholder', defaultMessage: 'Name, email or company' })}
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => setQuery(event.target.value)}
                className={`${inputClass} mt-1`}
              />
            </div>
            <div>
              <label htmlFor={`${id}-type`} className={labelClass}>
                {intl.formatMessage({ id: 'contacts.page.typeFilter', defaultMessage: 'Type' })}
              </label>
              <select
                id={`${id}-type`}
                value={type}
                onChange={(event) => setType(event.target.value as ContactTypeFilter)}
                className={`${inputClass} mt-1 w-auto`}
              >
                <option value="all">{intl.formatMessage({ id: 'contacts.page.typeAll', defaultMessage: 'All types' })}</option>
                <option value="person">{intl.formatMessage({ id: 'contacts.page.typePeople', defaultMessage: 'People' })}</option>
                <option value="company">{intl.formatMessage({ id: 'contacts.page.typeCompanies', defaultMessage: 'Companies' })}</option>
              </select>
            </div>
          </div>
          <p aria-live="polite" className="mb-2 text-sm text-zinc-600 dark:text-zinc-400">
            {filtered
              ? intl.formatMessage(
                  { id: 'contacts.page.countFiltered', defaultMessage: '{shown, number} of {total, plural, one {# contact} other {# contacts}}' },
                  { shown: shown.length, total: contacts.length },
                )
              : intl.formatMessage({ id: 'contacts.page.count', defaultMessage: '{total, plural, one {# contact} other {# contacts}}' }, { total: contacts.length })}
          </p>
          {shown.length === 0 ? (
            <EmptyState title={intl.formatMessage({ id: 'contacts.page.noMatchTitle', defaultMessage: 'No matching contacts' })}>
              {deferredQuery.trim()
                ? intl.formatMessage(
                    { id: 'contacts.page.noMatchQuery', defaultMessage: 'Nothing matches “{query}”. Try another name, address or company.' },
                    { query: <bdi key="query">{deferredQuery.trim()}</bdi> },
                  )
                : intl.formatMessage({ id: 'contacts.page.noMatchType', defaultMessage: 'None of this type. Try another name, address or company.' })}
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
            const name = contactName(saved) || saved.email;
            setAnnouncement(
              dialog.kind === 'edit'
                ? intl.formatMessage({ id: 'contacts.page.savedAnnouncement', defaultMessage: 'Saved {name}.' }, { name })
                : intl.formatMessage({ id: 'contacts.page.addedAnnouncement', defaultMessage: 'Added {name}.' }, { name }),
            );
            close();
          }}
        />
      ) : null}
      {dialog?.kind === 'delete' ? (
        <ConfirmDialog
          title={intl.formatMessage({ id: 'contacts.page.deleteTitle', defaultMessage: 'Delete this contact?' })}
          confirmLabel={intl.formatMessage({ id: 'contacts.page.deleteConfirm', defaultMessage: 'Delete contact' })}
          pendingLabel={intl.formatMessage({ id: 'contacts.page.deleting', defaultMessage: 'Deleting…' })}
          pending={remove.isPending}
          error={remove.error ? <FormError error={remove.error} /> : null}
          onCancel={close}
          onConfirm={() =>
            remove.mutate(dialog.contact.id, {
              onSuccess: () => {
                setAnnouncement(
                  intl.formatMessage({ id: 'contacts.page.deletedAnnouncement', defaultMessage: 'Deleted {name}.' }, { name: contactName(dialog.contact) || dialog.contact.email }),
                );
                close();
              },
            })
          }
        >
          {contactName(dialog.contact)
            ? intl.formatMessage(
                {
                  id: 'contacts.page.deleteTextNamed',
                  defaultMessage: '{name} ({email}) is removed from the address book. Transfers already sent to this address are not affected.',
                },
                { name: <bdi key="name">{contactName(dialog.contact)}</bdi>, email: <bdi key="email">{dialog.contact.email}</bdi> },
              )
            : intl.formatMessage(
                { id: 'contacts.page.deleteText', defaultMessage: '{email} is removed from the address book. Transfers already sent to this address are not affected.' },
                { email: <bdi key="email">{dialog.contact.email}</bdi> },
              )}
        </ConfirmDialog>
      ) : null}
      {dialog?.kind === 'import' ? <ImportContactsDialog onClose={close} onImported={(summary) => setAnnouncement(summary)} /> : null}
    </>
  );
}
