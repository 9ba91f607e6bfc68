import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { Folder } from '../../../../../contract/collections';
import { Button } from '../../../../components/button';
import { ModalDialog } from '../../../../components/modal-dialog';
import { useIntl } from '../../../../lib/intl';
import { subtreeIds } from '../../utils/folder-tree';
import type { BrowserItem } from '../../utils/browser-items';
import { FolderIcon } from './item-visual';

interface MoveDialogProps {
  rootTitle: string;
  folders: Folder[];
  items: BrowserItem[];
  /** Where the items are now: moving them there changes nothing. */
  fromFolderId: string | null;
  onMove: (folderId: string | null) => void;
  onClose: () => void;
}

interface Destination {
  id: string | null;
  name: string;
  depth: number;
  path: string;
  /** Why it cannot be chosen, if it cannot. */
  unavailable?: string;
}

const TOP = 'top';

/**
 * The folder picker: the keyboard's way to what dragging onto a folder does. The browser's
 * whole tree as a listbox (the top level first, then each folder under its parent); arrows move,
 * Enter or "Move here" moves. A folder cannot go into itself or anything inside it.
 */
export function MoveDialog({ rootTitle, folders, items, fromFolderId, onMove, onClose }: MoveDialogProps) {
  const intl = useIntl();
  const listId = useId();
  const list = useRef<HTMLDivElement>(null);
  const blocked = new Set(items.flatMap((item) => (item.kind === 'folder' ? [...subtreeIds(folders, item.id)] : [])));
  const destinations: Destination[] = [
    { id: null, name: rootTitle, depth: -1, path: intl.formatMessage({ id: 'collections.move.topLevel', defaultMessage: 'Top level' }) },
    ...folders.map((f) => ({ id: f.id, name: f.name, depth: f.depth, path: f.path })),
  ].map((d) => ({
    ...d,
    unavailable:
      d.id !== null && blocked.has(d.id)
        ? intl.formatMessage({ id: 'collections.move.beingMoved', defaultMessage: 'being moved' })
        : d.id === fromFolderId
          ? intl.formatMessage({ id: 'collections.move.alreadyHere', defaultMessage: 'already here' })
          : undefined,
  }));
  const [active, setActive] = useState(() =>
    Math.max(
      0,
      destinations.findIndex((d) => !d.unavailable),
    ),
  );
  const chosen = destinations[active];
  const optionIdOf = (d: Destination) => `${listId}-${d.id ?? TOP}`;

  const activeOptionId = chosen ? optionIdOf(chosen) : undefined;

  // Keeps the keyboard's option in view, scrolling the list alone (scrollIntoView would scroll the page behind the dialog too).
  useEffect(() => {
    const box = list.current;
    const option = activeOptionId ? document.getElementById(activeOptionId) : null;
    if (!box || !option) return;
    if (option.offsetTop < box.scrollTop) box.scrollTop = option.offsetTop;
    else if (option.offsetTop + option.offsetHeight > box.scrollTop + box.clientHeight)
      box.scrollTop = option.offsetTop + option.offsetHeight - box.clientHeight;
  }, [activeOptionId]);

  const move = () => {
    if (chosen && !chosen.unavailable) onMove(chosen.id);
  };

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const moves: Record<string, number> = { ArrowDown: active + 1, ArrowUp: active - 1, Home: 0, End: destinations.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      setActive(Math.max(0, Math.min(destinations.length - 1, moves[event.key]!)));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      move();
    }
  }

  const title =
    items.length === 1
      ? intl.formatMessage({ id: 'collections.move.titleOne', defaultMessage: 'Move “{name}”' }, { name: items[0]!.name })
      : intl.formatMessage({ id: 'collections.move.titleMany', defaultMessage: '{count, plural, one {Move # item} other {Move # items}}' }, { count: items.length });
  return (
    <ModalDialog
      title={title}
      description={intl.formatMessage({ id: 'collections.move.description', defaultMessage: 'Choose the folder to move to.' })}
      onClose={onClose}
      initialFocus={list}
    >
      <div className="space-y-4">
        <div
          ref={list}
          role="listbox"
          aria-label={intl.formatMessage({ id: 'collections.move.destination', defaultMessage: 'Destination folder' })}
          aria-activedescendant={activeOptionId}
          tabIndex={0}
          onKeyDown={onKeyDown}
          className="relative max-h-[50dvh] overflow-y-auto rounded-md border border-zinc-200 p-1 select-none dark:border-zinc-700"
        >
          {destinations.map((d, index) => (
            <div
              key={d.id ?? TOP}
              id={optionIdOf(d)}
              role="option"
              aria-selected={index === active}
              aria-disabled={d.unavailable ? true : undefined}
              aria-label={
                d.unavailable ? intl.formatMessage({ id: 'collections.move.unavailableName', defaultMessage: '{name} ({reason})' }, { name: d.name, reason: d.unavailable }) : d.name
              }
              title={d.path}
              onClick={() => setActive(index)}
              onDoubleClick={() => {
                setActive(index);
                if (!d.unavailable) onMove(d.id);
              }}
              style={{ paddingInlineStart: `${0.5 + (d.depth + 1) * 1.25}rem` }}
              className={`flex cursor-default items-center gap-2 rounded py-1.5 pe-2 text-sm ${index === active ? 'bg-indigo-50 ring-2 ring-indigo-600 ring-inset dark:bg-indigo-950 dark:ring-indigo-400' : 'hover:bg-zinc-50 dark:hover:bg-zinc-800'} ${d.unavailable ? 'text-zinc-500 dark:text-zinc-500' : ''}`}
            >
              <FolderIcon size="small" />
              <span className="min-w-0 truncate">{d.name}</span>
              {d.unavailable ? (
                <span className="shrink-0 text-xs">
                  {intl.formatMessage({ id: 'collections.move.unavailableNote', defaultMessage: '({reason})' }, { reason: d.unavailable })}
                </span>
              ) : null}
            </div>
          ))}
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            {intl.formatMessage({ id: 'collections.move.cancel', defaultMessage: 'Cancel' })}
          </Button>
          <Button onClick={move} disabled={!chosen || Boolean(chosen.unavailable)}>
            {intl.formatMessage({ id: 'collections.move.submit', defaultMessage: 'Move here' })}
          </Button>
        </div>
      </div>
    </ModalDialog>
  );
}
