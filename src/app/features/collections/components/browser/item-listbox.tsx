import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { IntlShape } from 'react-intl';
import type { ListedCollectionFile } from '../../../../../contract/collections';
import { SEPARATOR } from '../../../../components/glyphs';
import { formatBytes, formatDate } from '../../../../lib/format';
import { useIntl } from '../../../../lib/intl';
import { fileTypeLabel } from '../../../recipient';
import type { BrowserItem } from '../../utils/browser-items';
import type { BrowserView } from '../../utils/browser-search';
import { clearSelection, clickItem, moveTo, selectAll, toggleActive, type Selection } from '../../utils/selection';
import { ItemVisual } from './item-visual';
import type { ItemDrag } from './use-item-drag';

/** Rows have one height, so the virtualiser needs no measuring: 2,500 rows scroll as smoothly as 25. */
const ROW_HEIGHT = 56;
const CARD_ROW_HEIGHT = 212;
const CARD_MIN_WIDTH = 150;
const CARD_GAP = 12;

interface ItemListboxProps {
  items: BrowserItem[];
  view: BrowserView;
  /** The listbox's accessible name, such as "Contents of Raw". */
  label: string;
  /** Said in its place when there is nothing to list. */
  emptyText: string;
  selection: Selection;
  onSelectionChange: (selection: Selection) => void;
  /** Enter or a double click: a folder opens. */
  onOpen: (item: BrowserItem) => void;
  /** Delete key and F2: the toolbar's Delete and Rename for the selection. */
  onDeleteRequest: () => void;
  onRenameRequest: () => void;
  /** The API's message for an item whose change was refused, shown with it. */
  errors: ReadonlyMap<string, string>;
  coverFileId: string | null;
  drag: ItemDrag;
}

/** The list view's column titles, lined up with its rows; the rows' descriptions say the same to screen readers. */
export function ListColumns() {
  const intl = useIntl();
  return (
    <div
      aria-hidden="true"
      className="hidden items-center gap-3 border-b border-zinc-200 px-5 py-2 text-xs font-medium tracking-wide text-zinc-600 uppercase sm:flex dark:border-zinc-800 dark:text-zinc-400"
    >
      <span className="w-5 shrink-0" />
      <span className="w-9 shrink-0" />
      <span className="min-w-0 flex-1">{intl.formatMessage({ id: 'collections.columns.name', defaultMessage: 'Name' })}</span>
      <span className="w-24 shrink-0 text-end">{intl.formatMessage({ id: 'collections.columns.size', defaultMessage: 'Size' })}</span>
      <span className="hidden w-36 shrink-0 md:block">{intl.formatMessage({ id: 'collections.columns.type', defaultMessage: 'Type' })}</span>
      <span className="hidden w-28 shrink-0 lg:block">{intl.formatMessage({ id: 'collections.columns.added', defaultMessage: 'Added' })}</span>
    </div>
  );
}

/** The Added column of a folder: a dash, not a word. */
const NO_DATE = '—';

export function optionId(listId: string, key: string) {
  return `${listId}-${key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** The size column of a file that has none to show yet, or never will. */
function fileStateLabel(state: ListedCollectionFile['state'], intl: IntlShape): string | undefined {
  switch (state) {
    case 'uploading':
      return intl.formatMessage({ id: 'collections.fileState.uploading', defaultMessage: 'Uploading…' });
    case 'importing':
      return intl.formatMessage({ id: 'collections.fileState.importing', defaultMessage: 'Importing…' });
    case 'failed':
      return intl.formatMessage({ id: 'collections.fileState.failed', defaultMessage: 'Failed' });
    default:
      return undefined;
  }
}

/** Who added a file, as text (an uploader's name is theirs: untrusted, never markup). */
function addedBy(adder: NonNullable<ListedCollectionFile['addedBy']>, intl: IntlShape): string {
  if (adder.kind === 'key') return intl.formatMessage({ id: 'collections.addedBy.key', defaultMessage: 'added by API key “{name}”' }, { name: adder.name ?? adder.id });
  if (adder.kind === 'uploader') {
    const name = adder.name ?? adder.email;
    return name
      ? intl.formatMessage({ id: 'collections.addedBy.uploader', defaultMessage: 'added by {name} (upload request)' }, { name })
      : intl.formatMessage({ id: 'collections.addedBy.someUploader', defaultMessage: 'added by an uploader (upload request)' });
  }
  if (adder.kind === 'guest')
    return adder.email
      ? intl.formatMessage({ id: 'collections.addedBy.guest', defaultMessage: 'added by {email} (guest)' }, { email: adder.email })
      : intl.formatMessage({ id: 'collections.addedBy.someGuest', defaultMessage: 'added by a guest (guest)' });
  const name = adder.name ?? adder.email;
  return name
    ? intl.formatMessage({ id: 'collections.addedBy.member', defaultMessage: 'added by {name}' }, { name })
    : intl.formatMessage({ id: 'collections.addedBy.formerMember', defaultMessage: 'added by a former member' });
}

/** An item's facts, one after the other ("Folder · 3 files · 2 MB"): what screen readers hear of it, and a phone shows. */
function describe(item: BrowserItem, isCover: boolean, intl: IntlShape): string {
  const files = (count: number) => intl.formatMessage({ id: 'collections.item.files', defaultMessage: '{count, plural, one {# file} other {# files}}' }, { count });
  if (item.kind === 'folder') {
    const parts = [intl.formatMessage({ id: 'collections.item.folder', defaultMessage: 'Folder' }), files(item.fileCount), formatBytes(item.sizeBytes)];
    if (item.approved)
      parts.push(intl.formatMessage({ id: 'collections.item.approvedCount', defaultMessage: '{count, plural, one {# approved} other {# approved}}' }, { count: item.approved }));
    if (item.changesRequested)
      parts.push(
        intl.formatMessage(
          { id: 'collections.item.changesRequestedCount', defaultMessage: '{count, plural, one {# with changes requested} other {# with changes requested}}' },
          { count: item.changesRequested },
        ),
      );
    return parts.join(SEPARATOR);
  }
  const { file } = item;
  // A file still imported has no size yet, and a failed one never will: its state leads instead (all a phone's one line may show).
  const lead =
    file.state === 'importing'
      ? intl.formatMessage({ id: 'collections.item.importing', defaultMessage: 'Importing from a URL' })
      : file.state === 'failed'
        ? file.error
          ? intl.formatMessage({ id: 'collections.item.importFailedBecause', defaultMessage: 'Import failed: {problem}' }, { problem: file.error })
          : intl.formatMessage({ id: 'collections.item.failed', defaultMessage: 'Failed' })
        : formatBytes(file.sizeBytes);
  const parts = [lead, fileTypeLabel(file.mimeType, file.name, intl), formatDate(file.createdAt)];
  if (file.addedBy) parts.push(addedBy(file.addedBy, intl));
  if (file.review)
    parts.push(
      file.review.state === 'approved'
        ? intl.formatMessage({ id: 'collections.item.approved', defaultMessage: 'approved' })
        : intl.formatMessage({ id: 'collections.item.changesRequested', defaultMessage: 'changes requested' }),
    );
  if (file.commentCount > 0)
    parts.push(intl.formatMessage({ id: 'collections.item.comments', defaultMessage: '{count, plural, one {# comment} other {# comments}}' }, { count: file.commentCount }));
  if (file.state === 'uploading') parts.push(intl.formatMessage({ id: 'collections.item.uploading', defaultMessage: 'uploading' }));
  if (file.unsent) parts.push(intl.formatMessage({ id: 'collections.item.unsent', defaultMessage: 'not sent yet: only you see it' }));
  if (isCover) parts.push(intl.formatMessage({ id: 'collections.item.cover', defaultMessage: 'cover' }));
  return parts.join(SEPARATOR);
}

function useWidth(element: HTMLElement | null): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!element) return;
    setWidth(element.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return width;
}

/**
 * The folder's contents as one multi-select listbox, in rows (list) or cards (grid), virtualised.
 * Focus stays on the listbox and `aria-activedescendant` names the item the keyboard is on:
 * arrows move, Space selects, Shift+arrows extend, Ctrl/Cmd+A selects all, Escape clears, Enter
 * opens a folder. A click selects one item, Ctrl/Cmd+click toggles, Shift+click selects a range;
 * each item's check box toggles it alone (a tap on a phone).
 */
export function ItemListbox({
  items,
  view,
  label,
  emptyText,
  selection,
  onSelectionChange,
  onOpen,
  onDeleteRequest,
  onRenameRequest,
  errors,
  coverFileId,
  drag,
}: ItemListboxProps) {
  const intl = useIntl();
  const listId = useId();
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const width = useWidth(scroller);
  const columns = view === 'grid' ? Math.max(1, Math.floor((width - 16 + CARD_GAP) / (CARD_MIN_WIDTH + CARD_GAP))) : 1;
  const rowCount = Math.ceil(items.length / columns);
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scroller,
    estimateSize: () => (view === 'grid' ? CARD_ROW_HEIGHT : ROW_HEIGHT),
    overscan: view === 'grid' ? 3 : 10,
    paddingStart: 8,
    paddingEnd: 8,
  });
  // The row height changes with the view: measurements made for the other one are stale.
  useEffect(() => virtualizer.measure(), [virtualizer, view, columns]);

  const keys = items.map((item) => item.key);
  const activeIndex = selection.active === null ? -1 : keys.indexOf(selection.active);
  const active = activeIndex >= 0 ? items[activeIndex] : undefined;

  const goTo = (index: number, extend: boolean) => {
    const target = items[Math.max(0, Math.min(items.length - 1, index))];
    if (!target) return;
    onSelectionChange(moveTo(selection, keys, target.key, extend));
    virtualizer.scrollToIndex(Math.floor(keys.indexOf(target.key) / columns), { align: 'auto' });
  };

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const command = event.ctrlKey || event.metaKey;
    const from = activeIndex;
    const pageRows = Math.max(1, Math.floor((scroller?.clientHeight ?? 0) / (view === 'grid' ? CARD_ROW_HEIGHT : ROW_HEIGHT)) - 1);
    const moves: Record<string, number | undefined> = {
      ArrowDown: from < 0 ? 0 : from + columns,
      ArrowUp: from < 0 ? 0 : from - columns,
      ArrowRight: view === 'grid' ? (from < 0 ? 0 : from + 1) : undefined,
      ArrowLeft: view === 'grid' ? (from < 0 ? 0 : from - 1) : undefined,
      Home: 0,
      End: items.length - 1,
      PageDown: from < 0 ? 0 : from + pageRows * columns,
      PageUp: from < 0 ? 0 : from - pageRows * columns,
    };
    const move = moves[event.key];
    if (move !== undefined) {
      event.preventDefault();
      // Past either end in the grid, the keyboard stays put rather than wrapping onto another row.
      if (move >= items.length && (event.key === 'ArrowDown' || event.key === 'ArrowRight') && from >= 0 && columns > 1) return;
      goTo(move, event.shiftKey);
      return;
    }
    if (event.key === ' ') {
      event.preventDefault();
      if (!active) return goTo(0, false);
      onSelectionChange(event.shiftKey ? moveTo(selection, keys, active.key, true) : toggleActive(selection));
    } else if (event.key === 'Enter' && active) {
      event.preventDefault();
      onOpen(active);
    } else if (event.key === 'Escape' && selection.selected.size > 0) {
      event.preventDefault();
      onSelectionChange(clearSelection(selection));
    } else if (command && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      onSelectionChange(selectAll(selection, keys));
    } else if (event.key === 'Delete' && selection.selected.size > 0) {
      event.preventDefault();
      onDeleteRequest();
    } else if (event.key === 'F2' && selection.selected.size === 1) {
      event.preventDefault();
      onRenameRequest();
    }
  }

  function onFocus() {
    // Arriving by Tab, the keyboard starts on the selection, or the first item.
    if (active || items.length === 0) return;
    const first = items.find((item) => selection.selected.has(item.key)) ?? items[0]!;
    onSelectionChange({ ...selection, active: first.key });
  }

  // A tap is not a click: on a touch screen there is no double click, Ctrl or Shift, so a tap opens a
  // folder and puts a file in or out of the selection, as phone file apps do.
  const lastPointer = useRef<string>('mouse');
  const onItemClick = (item: BrowserItem) => (event: MouseEvent) => {
    if (lastPointer.current === 'touch') {
      if (item.kind === 'folder') onOpen(item);
      else onSelectionChange(clickItem(selection, keys, item.key, { toggle: true, extend: false }));
      return;
    }
    onSelectionChange(clickItem(selection, keys, item.key, { toggle: event.ctrlKey || event.metaKey, extend: event.shiftKey }));
  };
  const onCheckClick = (item: BrowserItem) => (event: MouseEvent) => {
    // The check box selects, whatever the pointer: a tap on it never opens the folder.
    event.stopPropagation();
    onSelectionChange(clickItem(selection, keys, item.key, { toggle: true, extend: event.shiftKey }));
  };

  const renderItem = (item: BrowserItem, index: number) => {
    const selected = selection.selected.has(item.key);
    const isActive = item.key === selection.active;
    const error = errors.get(item.key);
    // Shown under the name: a change the server refused, else why the file's import failed (the description says both).
    const shownError = error ?? (item.kind === 'file' && item.file.state === 'failed' ? (item.file.error ?? undefined) : undefined);
    const isCover = item.kind === 'file' && item.id === coverFileId;
    // An uploader's file they have not sent: the owner's alone until sent, published or discarded (see the request's page).
    const notSent = item.kind === 'file' && item.file.unsent ? (
      <span className="ms-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/60 dark:text-amber-100">
        {intl.formatMessage({ id: 'collections.item.notSentBadge', defaultMessage: 'Not sent yet' })}
      </span>
    ) : null;
    const detailsId = `${optionId(listId, item.key)}-details`;
    const common = {
      id: optionId(listId, item.key),
      role: 'option',
      'aria-selected': selected,
      'aria-label': item.name,
      'aria-describedby': detailsId,
      'aria-setsize': items.length,
      'aria-posinset': index + 1,
      'data-active': isActive || undefined,
      onPointerDown: (event: { pointerType: string }) => {
        lastPointer.current = event.pointerType;
      },
      onClick: onItemClick(item),
      onDoubleClick: () => onOpen(item),
      ...drag.sourceProps(item),
      ...(item.kind === 'folder' ? drag.targetProps(item.id) : {}),
    } as const;
    const check = (
      <span
        aria-hidden="true"
        onClick={onCheckClick(item)}
        className={`flex size-5 shrink-0 cursor-pointer items-center justify-center rounded border ${selected ? 'border-indigo-600 bg-indigo-600 text-white dark:border-indigo-400 dark:bg-indigo-500' : 'border-zinc-400 bg-white dark:border-zinc-500 dark:bg-zinc-900'}`}
      >
        {selected ? (
          <svg viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="2.25" strokeLinecap="round" strokeLinejoin="round">
            <path d="m3.5 8.5 3 3 6-7" />
          </svg>
        ) : null}
      </span>
    );
    const state = `${selected ? 'bg-indigo-50 dark:bg-indigo-950/70' : 'hover:bg-zinc-50 dark:hover:bg-zinc-800/60'} ${isActive ? 'group-focus-visible:ring-2 group-focus-visible:ring-indigo-600 group-focus-visible:ring-inset dark:group-focus-visible:ring-indigo-400' : ''} data-[drop-target]:bg-indigo-100 data-[drop-target]:ring-2 data-[drop-target]:ring-indigo-500 dark:data-[drop-target]:bg-indigo-900`;
    const details = (
      <span id={detailsId} className={shownError ? 'text-red-700 dark:text-red-400' : undefined}>
        {error ? [error, describe(item, isCover, intl)].join(SEPARATOR) : describe(item, isCover, intl)}
      </span>
    );

    if (view === 'grid') {
      return (
        <div
          key={item.key}
          {...common}
          className={`flex h-[200px] min-w-0 cursor-default flex-col overflow-hidden rounded-lg border border-zinc-200 dark:border-zinc-800 ${state}`}
        >
          <div className="relative h-32 shrink-0 overflow-hidden bg-zinc-100 dark:bg-zinc-800/70">
            <ItemVisual item={item} layout="card" />
            <span className="absolute start-2 top-2">{check}</span>
            {isCover ? (
              <span className="absolute end-2 top-2 rounded-full bg-white/90 px-2 py-0.5 text-xs font-medium text-zinc-800 dark:bg-zinc-900/90 dark:text-zinc-200">
                {intl.formatMessage({ id: 'collections.item.coverBadge', defaultMessage: 'Cover' })}
              </span>
            ) : null}
          </div>
          <div className="min-w-0 px-3 py-2">
            <p className="truncate text-sm font-medium" title={item.name}>
              {item.name}
            </p>
            {notSent}
            <p className="line-clamp-2 text-xs text-zinc-600 dark:text-zinc-400">{details}</p>
          </div>
        </div>
      );
    }
    return (
      <div key={item.key} {...common} className={`flex h-[52px] cursor-default items-center gap-3 rounded-md px-3 ${state}`}>
        {check}
        <ItemVisual item={item} layout="row" />
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium" title={item.name}>
            {item.name}
            {isCover ? (
              <span className="ms-2 text-xs font-normal text-indigo-700 dark:text-indigo-300">
                {intl.formatMessage({ id: 'collections.item.coverBadge', defaultMessage: 'Cover' })}
              </span>
            ) : null}
            {notSent}
          </p>
          <p className="truncate text-xs text-zinc-600 sm:hidden dark:text-zinc-400">{details}</p>
          {shownError ? (
            <p className="hidden truncate text-xs text-red-700 sm:block dark:text-red-400" title={shownError}>
              {shownError}
            </p>
          ) : null}
        </div>
        {/* Columns on wider screens; screen readers get the same through the description. */}
        <span aria-hidden="true" className="hidden w-24 shrink-0 text-end text-sm text-zinc-600 tabular-nums sm:block dark:text-zinc-400">
          {item.kind === 'folder' ? formatBytes(item.sizeBytes) : (fileStateLabel(item.file.state, intl) ?? formatBytes(item.sizeBytes))}
        </span>
        <span aria-hidden="true" className="hidden w-36 shrink-0 truncate text-sm text-zinc-600 md:block dark:text-zinc-400">
          {item.kind === 'folder' ? intl.formatMessage({ id: 'collections.item.folder', defaultMessage: 'Folder' }) : fileTypeLabel(item.file.mimeType, item.file.name, intl)}
        </span>
        <span aria-hidden="true" className="hidden w-28 shrink-0 text-sm text-zinc-600 tabular-nums lg:block dark:text-zinc-400">
          {item.kind === 'folder' ? NO_DATE : formatDate(item.file.createdAt)}
        </span>
      </div>
    );
  };

  const empty = items.length === 0;
  // One element whether or not there is anything to list, so focus stays put when a folder turns out empty.
  return (
    <div
      ref={setScroller}
      id={listId}
      role={empty ? 'group' : 'listbox'}
      aria-label={label}
      aria-multiselectable={empty ? undefined : true}
      aria-activedescendant={active ? optionId(listId, active.key) : undefined}
      tabIndex={0}
      onKeyDown={empty ? undefined : onKeyDown}
      onFocus={onFocus}
      className="group relative h-[min(38rem,calc(100dvh-15rem))] min-h-72 overflow-y-auto overscroll-contain rounded-b-lg bg-white select-none focus-visible:outline-offset-0 dark:bg-zinc-900"
    >
      {empty ? <p className="px-6 py-16 text-center text-sm text-zinc-600 dark:text-zinc-400">{emptyText}</p> : null}
      <div role="none" className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const start = row.index * columns;
          const rowItems = items.slice(start, start + columns);
          return (
            <div
              role="none"
              key={row.key}
              className={view === 'grid' ? 'absolute inset-x-0 grid gap-3 px-2' : 'absolute inset-x-0 px-2'}
              style={{
                transform: `translateY(${row.start}px)`,
                height: row.size,
                ...(view === 'grid' ? { gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` } : {}),
              }}
            >
              {rowItems.map((item, i) => renderItem(item, start + i))}
            </div>
          );
        })}
      </div>
    </div>
  );
}
