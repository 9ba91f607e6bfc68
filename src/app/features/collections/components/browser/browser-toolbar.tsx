import type { ReactNode } from 'react';
import { useIntl } from '../../../../lib/intl';
import type { BrowserSort, BrowserView, SortOrder } from '../../utils/browser-search';
import { icons } from './icons';

const toolClass =
  'inline-flex h-9 items-center justify-center gap-1.5 rounded-md px-2.5 text-sm font-medium text-zinc-700 hover:bg-zinc-100 disabled:cursor-not-allowed disabled:opacity-50 disabled:hover:bg-transparent sm:px-3 dark:text-zinc-300 dark:hover:bg-zinc-800';

/** A toolbar button: its glyph always, its name in text from small screens up (and always to screen readers). */
export function ToolButton({
  icon,
  label,
  onClick,
  disabled,
  pressed,
  iconOnly = false,
}: {
  icon: ReactNode;
  label: string;
  onClick: () => void;
  disabled?: boolean;
  pressed?: boolean;
  /** For controls whose glyph says it all (list, grid, order): the name stays for screen readers and as a tooltip. */
  iconOnly?: boolean;
}) {
  return (
    <button
      type="button"
      className={`${toolClass} ${pressed ? 'bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-white' : ''}`}
      onClick={onClick}
      disabled={disabled}
      aria-pressed={pressed}
      title={label}
    >
      {icon}
      <span className={iconOnly ? 'sr-only' : 'sr-only sm:not-sr-only'}>{label}</span>
    </button>
  );
}

export interface SelectionActions {
  onNewFolder: () => void;
  onRename?: () => void;
  onMove?: () => void;
  onDelete?: () => void;
  onSetCover?: () => void;
  /** Whether the browser has covers at all: where it does, the button stays in place, disabled when it does not apply. */
  hasCovers?: boolean;
  /** The vault's "Send": a file (or several) sent on as an encrypted transfer; absent where there is no such thing. */
  onSend?: () => void;
  /** Whether the browser can send at all (the vault): the button stays in place, disabled when nothing sendable is selected. */
  canSend?: boolean;
  /** A collection's "Review": the selected file's comments and decision; absent where there is no review (the vault). */
  onReview?: () => void;
  hasReview?: boolean;
  onDownload?: () => void;
  downloadLabel: string;
  downloading: boolean;
}

/**
 * What can be done with the selection (an action that does not apply is disabled), and how the
 * folder is shown. On a phone the buttons keep only their glyphs and wrap.
 */
export function BrowserToolbar({
  selectedCount,
  actions,
  sort,
  order,
  view,
  onSortChange,
  onOrderChange,
  onViewChange,
}: {
  selectedCount: number;
  actions: SelectionActions;
  sort: BrowserSort;
  order: SortOrder;
  view: BrowserView;
  onSortChange: (sort: BrowserSort) => void;
  onOrderChange: (order: SortOrder) => void;
  onViewChange: (view: BrowserView) => void;
}) {
  const intl = useIntl();
  return (
    <div className="flex flex-wrap items-center gap-x-1 gap-y-2 border-b border-zinc-200 px-2 py-2 dark:border-zinc-800">
      <div role="group" aria-label={intl.formatMessage({ id: 'collections.toolbar.actions', defaultMessage: 'Actions' })} className="flex flex-wrap items-center gap-0.5">
        <ToolButton icon={icons.newFolder} label={intl.formatMessage({ id: 'collections.toolbar.newFolder', defaultMessage: 'New folder' })} onClick={actions.onNewFolder} />
        <ToolButton
          icon={icons.rename}
          label={intl.formatMessage({ id: 'collections.toolbar.rename', defaultMessage: 'Rename' })}
          onClick={() => actions.onRename?.()}
          disabled={!actions.onRename}
        />
        <ToolButton
          icon={icons.move}
          label={intl.formatMessage({ id: 'collections.toolbar.move', defaultMessage: 'Move' })}
          onClick={() => actions.onMove?.()}
          disabled={!actions.onMove}
        />
        <ToolButton
          icon={icons.delete}
          label={intl.formatMessage({ id: 'collections.toolbar.delete', defaultMessage: 'Delete' })}
          onClick={() => actions.onDelete?.()}
          disabled={!actions.onDelete}
        />
        {actions.hasCovers === false ? null : (
          <ToolButton
            icon={icons.cover}
            label={intl.formatMessage({ id: 'collections.toolbar.setCover', defaultMessage: 'Set as cover' })}
            onClick={() => actions.onSetCover?.()}
            disabled={!actions.onSetCover}
          />
        )}
        <ToolButton
          icon={icons.download}
          label={actions.downloading ? intl.formatMessage({ id: 'collections.toolbar.preparing', defaultMessage: 'Preparing…' }) : actions.downloadLabel}
          onClick={() => actions.onDownload?.()}
          disabled={!actions.onDownload || actions.downloading}
        />
        {actions.canSend ? (
          <ToolButton
            icon={icons.send}
            label={intl.formatMessage({ id: 'collections.toolbar.send', defaultMessage: 'Send' })}
            onClick={() => actions.onSend?.()}
            disabled={!actions.onSend}
          />
        ) : null}
        {actions.hasReview ? (
          <ToolButton
            icon={icons.review}
            label={intl.formatMessage({ id: 'collections.toolbar.review', defaultMessage: 'Review' })}
            onClick={() => actions.onReview?.()}
            disabled={!actions.onReview}
          />
        ) : null}
      </div>
      {/* Its room is kept while nothing is selected: the count appearing must not wrap the bar and move the list under the pointer (a double click's second click would land on another row). */}
      <p aria-live="polite" className="min-w-28 px-2 text-sm text-zinc-600 tabular-nums dark:text-zinc-400">
        {selectedCount > 0
          ? intl.formatMessage({ id: 'collections.toolbar.selected', defaultMessage: '{count, plural, one {# selected} other {# selected}}' }, { count: selectedCount })
          : null}
      </p>
      <div className="ms-auto flex items-center gap-1">
        <label className="flex items-center gap-1.5 text-sm text-zinc-700 dark:text-zinc-300">
          <span className="sr-only sm:not-sr-only">{intl.formatMessage({ id: 'collections.toolbar.sortBy', defaultMessage: 'Sort by' })}</span>
          <select
            value={sort}
            onChange={(e) => onSortChange(e.target.value as BrowserSort)}
            className="h-9 rounded-md border border-zinc-300 bg-white py-1 ps-2 pe-8 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          >
            <option value="name">{intl.formatMessage({ id: 'collections.toolbar.sortName', defaultMessage: 'Name' })}</option>
            <option value="size">{intl.formatMessage({ id: 'collections.toolbar.sortSize', defaultMessage: 'Size' })}</option>
            <option value="date">{intl.formatMessage({ id: 'collections.toolbar.sortDate', defaultMessage: 'Date added' })}</option>
          </select>
        </label>
        <ToolButton
          icon={order === 'asc' ? icons.ascending : icons.descending}
          label={intl.formatMessage({ id: 'collections.toolbar.descending', defaultMessage: 'Descending' })}
          pressed={order === 'desc'}
          iconOnly
          onClick={() => onOrderChange(order === 'asc' ? 'desc' : 'asc')}
        />
        <div role="group" aria-label={intl.formatMessage({ id: 'collections.toolbar.view', defaultMessage: 'View' })} className="flex items-center">
          <ToolButton
            icon={icons.list}
            label={intl.formatMessage({ id: 'collections.toolbar.list', defaultMessage: 'List' })}
            onClick={() => onViewChange('list')}
            pressed={view === 'list'}
            iconOnly
          />
          <ToolButton
            icon={icons.grid}
            label={intl.formatMessage({ id: 'collections.toolbar.grid', defaultMessage: 'Grid' })}
            onClick={() => onViewChange('grid')}
            pressed={view === 'grid'}
            iconOnly
          />
        </div>
      </div>
    </div>
  );
}
