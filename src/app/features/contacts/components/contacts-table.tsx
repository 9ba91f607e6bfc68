import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState } from 'react';
import type { Contact } from '../../../../contract/contacts';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { RelativeTime } from '../../../components/relative-time';
import { useIntl } from '../../../lib/intl';
import { contactListName, type ContactSort, type ContactSortKey } from '../utils/contact-list';

/** A row's height before it is measured (one line on wide screens, two on phones). */
const ESTIMATED_ROW_HEIGHT = 53;

const headerClass = 'px-3 py-2.5 text-start text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400';
const cellClass = 'px-3 py-3 align-middle';

/** Signs, not words (hidden from screen readers, which hear `aria-sort`); up and down read the same either way round. */
const SORT_ARROWS = { ascending: '↑', descending: '↓' } as const;

function SortHeader({
  label,
  sortKey,
  sort,
  onSort,
  className = '',
}: {
  label: string;
  sortKey: ContactSortKey;
  sort: ContactSort;
  onSort: (sort: ContactSort) => void;
  className?: string;
}) {
  const active = sort.key === sortKey;
  const next: ContactSort = { key: sortKey, direction: active && sort.direction === 'ascending' ? 'descending' : 'ascending' };
  return (
    <th scope="col" aria-sort={active ? sort.direction : undefined} className={`${headerClass} ${className}`}>
      <button
        type="button"
        onClick={() => onSort(next)}
        className="-mx-1 inline-flex items-center gap-1 rounded px-1 py-0.5 uppercase hover:text-zinc-900 dark:hover:text-zinc-100"
      >
        {label}
        <span aria-hidden="true" className={active ? '' : 'opacity-0'}>
          {SORT_ARROWS[active ? sort.direction : 'ascending']}
        </span>
      </button>
    </th>
  );
}

/**
 * The address book as a table, virtualised against the page's own scroll: thousands of contacts
 * render only the rows on screen (plus a margin), so searching, sorting and scrolling stay smooth.
 * `aria-rowcount` and `aria-rowindex` tell screen readers where they are in the whole list.
 */
export function ContactsTable({
  contacts,
  sort,
  onSort,
  onEdit,
  onDelete,
}: {
  contacts: Contact[];
  sort: ContactSort;
  onSort: (sort: ContactSort) => void;
  onEdit: (contact: Contact) => void;
  onDelete: (contact: Contact) => void;
}) {
  const intl = useIntl();
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const measure = () => setScrollMargin((bodyRef.current?.getBoundingClientRect().top ?? 0) + window.scrollY);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: contacts.length,
    estimateSize: () => ESTIMATED_ROW_HEIGHT,
    overscan: 12,
    scrollMargin,
    getItemKey: (index) => contacts[index]!.id,
  });
  const rows = virtualizer.getVirtualItems();
  const paddingTop = rows.length > 0 ? rows[0]!.start - scrollMargin : 0;
  const paddingBottom = rows.length > 0 ? virtualizer.getTotalSize() - (rows[rows.length - 1]!.end - scrollMargin) : 0;

  return (
    <div className="overflow-hidden rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <table aria-label={intl.formatMessage({ id: 'contacts.table.label', defaultMessage: 'Contacts' })} aria-rowcount={contacts.length + 1} className="w-full table-fixed text-sm">
        <thead className="border-b border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900/60">
          <tr aria-rowindex={1}>
            <SortHeader
              label={intl.formatMessage({ id: 'contacts.table.name', defaultMessage: 'Name' })}
              sortKey="name"
              sort={sort}
              onSort={onSort}
              className="w-auto"
            />
            <SortHeader
              label={intl.formatMessage({ id: 'contacts.table.email', defaultMessage: 'Email' })}
              sortKey="email"
              sort={sort}
              onSort={onSort}
              className="hidden w-[40%] sm:table-cell md:w-[24%]"
            />
            <SortHeader
              label={intl.formatMessage({ id: 'contacts.table.company', defaultMessage: 'Company' })}
              sortKey="company"
              sort={sort}
              onSort={onSort}
              className="hidden w-[16%] md:table-cell"
            />
            <th scope="col" className={`${headerClass} hidden w-36 xl:table-cell`}>
              {intl.formatMessage({ id: 'contacts.table.phone', defaultMessage: 'Phone' })}
            </th>
            <th scope="col" className={`${headerClass} hidden w-24 lg:table-cell`}>
              {intl.formatMessage({ id: 'contacts.table.type', defaultMessage: 'Type' })}
            </th>
            <SortHeader
              label={intl.formatMessage({ id: 'contacts.table.updated', defaultMessage: 'Updated' })}
              sortKey="updatedAt"
              sort={sort}
              onSort={onSort}
              className="hidden w-28 lg:table-cell"
            />
            <th scope="col" className={`${headerClass} w-32`}>
              <span className="sr-only">{intl.formatMessage({ id: 'contacts.table.actions', defaultMessage: 'Actions' })}</span>
            </th>
          </tr>
        </thead>
        <tbody ref={bodyRef} className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {paddingTop > 0 ? (
            <tr aria-hidden="true">
              <td colSpan={7} style={{ height: paddingTop, padding: 0 }} />
            </tr>
          ) : null}
          {rows.map((row) => {
            const contact = contacts[row.index]!;
            const { name, label } = contactListName(contact);
            return (
              <tr
                key={row.key}
                data-index={row.index}
                ref={virtualizer.measureElement}
                aria-rowindex={row.index + 2}
                className="hover:bg-zinc-50 dark:hover:bg-zinc-800/40"
              >
                <th scope="row" className={`${cellClass} min-w-0 text-start font-medium`}>
                  <span className="block truncate" title={label}>
                    {name || <span className="text-zinc-600 dark:text-zinc-400">{contact.email}</span>}
                  </span>
                  {name ? <span className="block truncate text-xs font-normal text-zinc-600 sm:hidden dark:text-zinc-400">{contact.email}</span> : null}
                </th>
                <td className={`${cellClass} hidden truncate sm:table-cell`} title={contact.email}>
                  {contact.email}
                </td>
                <td className={`${cellClass} hidden truncate md:table-cell`} title={contact.company}>
                  {contact.company}
                </td>
                <td className={`${cellClass} hidden truncate whitespace-nowrap xl:table-cell`}>{contact.phone}</td>
                <td className={`${cellClass} hidden lg:table-cell`}>
                  <Badge tone={contact.type === 'company' ? 'accent' : 'neutral'}>
                    {contact.type === 'company'
                      ? intl.formatMessage({ id: 'contacts.table.typeCompany', defaultMessage: 'Company' })
                      : intl.formatMessage({ id: 'contacts.table.typePerson', defaultMessage: 'Person' })}
                  </Badge>
                </td>
                <td className={`${cellClass} hidden whitespace-nowrap text-zinc-600 lg:table-cell dark:text-zinc-400`}>
                  <RelativeTime iso={contact.updatedAt} />
                </td>
                <td className={`${cellClass} text-end whitespace-nowrap`}>
                  <Button
                    variant="ghost"
                    className="px-2 py-1 text-xs"
                    aria-label={intl.formatMessage({ id: 'contacts.table.editName', defaultMessage: 'Edit {name}' }, { name: label })}
                    onClick={() => onEdit(contact)}
                  >
                    {intl.formatMessage({ id: 'contacts.table.edit', defaultMessage: 'Edit' })}
                  </Button>
                  <Button
                    variant="ghost"
                    className="px-2 py-1 text-xs"
                    aria-label={intl.formatMessage({ id: 'contacts.table.deleteName', defaultMessage: 'Delete {name}' }, { name: label })}
                    onClick={() => onDelete(contact)}
                  >
                    {intl.formatMessage({ id: 'contacts.table.delete', defaultMessage: 'Delete' })}
                  </Button>
                </td>
              </tr>
            );
          })}
          {paddingBottom > 0 ? (
            <tr aria-hidden="true">
              <td colSpan={7} style={{ height: paddingBottom, padding: 0 }} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
