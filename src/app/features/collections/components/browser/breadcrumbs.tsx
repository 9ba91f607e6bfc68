import { Link } from '@tanstack/react-router';
import type { Folder } from '../../../../../contract/collections';
import type { ItemDrag } from './use-item-drag';

const crumbClass =
  'block max-w-[14rem] truncate rounded px-1.5 py-0.5 hover:bg-zinc-100 hover:text-zinc-900 data-[drop-target]:bg-indigo-100 data-[drop-target]:ring-2 data-[drop-target]:ring-indigo-500 dark:hover:bg-zinc-800 dark:hover:text-white dark:data-[drop-target]:bg-indigo-900';

/**
 * Link marks itself `aria-current="page"` whenever its address is a prefix of the page's and its
 * search a subset: without `exact`, Collections and the top crumb would be current in every folder.
 */
const onlyWhenShown = { exact: true } as const;

function Separator() {
  return (
    <span aria-hidden="true" className="text-zinc-400 dark:text-zinc-600">
      ›
    </span>
  );
}

/**
 * Where the browser is: Collections › the collection › its folders down to the one shown. Each
 * crumb but the grid's is a drop target for dragged items (a move there).
 */
export function Breadcrumbs({ collectionId, title, ancestry, drag }: { collectionId: string; title: string; ancestry: Folder[]; drag: ItemDrag }) {
  const current = ancestry.at(-1)?.id ?? null;
  return (
    <nav aria-label="Breadcrumb" className="mb-2 min-w-0 text-sm text-zinc-600 dark:text-zinc-400">
      <ol className="flex flex-wrap items-center gap-x-1 gap-y-1">
        <li className="flex items-center gap-1">
          <Link to="/collections" activeOptions={onlyWhenShown} className={crumbClass}>
            Collections
          </Link>
          <Separator />
        </li>
        <li className="flex min-w-0 items-center gap-1">
          <Link
            from="/collections/$collectionId"
            to="/collections/$collectionId"
            params={{ collectionId }}
            search={(prev) => ({ ...prev, folder: undefined })}
            activeOptions={onlyWhenShown}
            {...drag.targetProps(null)}
            aria-current={current === null ? 'page' : undefined}
            className={`${crumbClass} ${current === null ? 'font-medium text-zinc-900 dark:text-zinc-100' : ''}`}
          >
            {title}
          </Link>
          {ancestry.length > 0 ? <Separator /> : null}
        </li>
        {ancestry.map((folder, i) => (
          <li key={folder.id} className="flex min-w-0 items-center gap-1">
            <Link
              from="/collections/$collectionId"
              to="/collections/$collectionId"
              params={{ collectionId }}
              search={(prev) => ({ ...prev, folder: folder.id })}
              activeOptions={onlyWhenShown}
              {...drag.targetProps(folder.id)}
              aria-current={folder.id === current ? 'page' : undefined}
              className={`${crumbClass} ${folder.id === current ? 'font-medium text-zinc-900 dark:text-zinc-100' : ''}`}
            >
              {folder.name}
            </Link>
            {i < ancestry.length - 1 ? <Separator /> : null}
          </li>
        ))}
      </ol>
    </nav>
  );
}
