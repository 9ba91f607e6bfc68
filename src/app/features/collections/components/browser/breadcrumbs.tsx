import { Link } from '@tanstack/react-router';
import type { ComponentType, ReactNode } from 'react';
import type { Folder } from '../../../../../contract/collections';
import { Glyph } from '../../../../components/glyphs';
import { useIntl } from '../../../../lib/intl';
import type { ItemDrag } from './use-item-drag';

const crumbClass =
  'block max-w-[14rem] truncate rounded px-1.5 py-0.5 hover:bg-zinc-100 hover:text-zinc-900 data-[drop-target]:bg-indigo-100 data-[drop-target]:ring-2 data-[drop-target]:ring-indigo-500 dark:hover:bg-zinc-800 dark:hover:text-white dark:data-[drop-target]:bg-indigo-900';

/**
 * Link marks itself `aria-current="page"` whenever its address is a prefix of the page's and its
 * search a subset: without `exact`, Collections and the top crumb would be current in every folder.
 */
const onlyWhenShown = { exact: true } as const;

/** Points the way the trail reads: turned round on a right-to-left page. */
function Separator() {
  return (
    <span aria-hidden="true" className="text-zinc-400 dark:text-zinc-600">
      <Glyph sign="nextPage" />
    </span>
  );
}

/** What a crumb renders as: a link to one folder of the browser (null: its top level), with the crumb's props spread on it. */
export type FolderLinkComponent = ComponentType<
  { folderId: string | null; className: string; children: ReactNode; 'aria-current'?: 'page' } & ReturnType<ItemDrag['targetProps']>
>;

/** The collection browser's crumbs: the collection's page, with `folder` in its search. */
export function collectionFolderLink(collectionId: string): FolderLinkComponent {
  return function CollectionFolderLink({ folderId, ...props }) {
    return (
      <Link
        from="/collections/$collectionId"
        to="/collections/$collectionId"
        params={{ collectionId }}
        search={(prev) => ({ ...prev, folder: folderId ?? undefined })}
        activeOptions={onlyWhenShown}
        {...props}
      />
    );
  };
}

export function CollectionsCrumb() {
  const intl = useIntl();
  return (
    <Link to="/collections" activeOptions={onlyWhenShown} className={crumbClass}>
      {intl.formatMessage({ id: 'collections.breadcrumbs.collections', defaultMessage: 'Collections' })}
    </Link>
  );
}

interface BreadcrumbsProps {
  /** The crumb before the browser's own (the grid it belongs to), if any. */
  parent?: ReactNode;
  /** The top level's name. */
  title: string;
  ancestry: Folder[];
  drag: ItemDrag;
  FolderLink: FolderLinkComponent;
}

/**
 * Where the browser is: the parent (Collections) › the top level › its folders down to the one
 * shown. Each crumb of the browser is a drop target for dragged items (a move there).
 */
export function Breadcrumbs({ parent, title, ancestry, drag, FolderLink }: BreadcrumbsProps) {
  const intl = useIntl();
  const current = ancestry.at(-1)?.id ?? null;
  return (
    <nav aria-label={intl.formatMessage({ id: 'collections.breadcrumbs.label', defaultMessage: 'Breadcrumb' })} className="mb-2 min-w-0 text-sm text-zinc-600 dark:text-zinc-400">
      <ol className="flex flex-wrap items-center gap-x-1 gap-y-1">
        {parent ? (
          <li className="flex items-center gap-1">
            {parent}
            <Separator />
          </li>
        ) : null}
        <li className="flex min-w-0 items-center gap-1">
          <FolderLink
            folderId={null}
            {...drag.targetProps(null)}
            aria-current={current === null ? 'page' : undefined}
            className={`${crumbClass} ${current === null ? 'font-medium text-zinc-900 dark:text-zinc-100' : ''}`}
          >
            {title}
          </FolderLink>
          {ancestry.length > 0 ? <Separator /> : null}
        </li>
        {ancestry.map((folder, i) => (
          <li key={folder.id} className="flex min-w-0 items-center gap-1">
            <FolderLink
              folderId={folder.id}
              {...drag.targetProps(folder.id)}
              aria-current={folder.id === current ? 'page' : undefined}
              className={`${crumbClass} ${folder.id === current ? 'font-medium text-zinc-900 dark:text-zinc-100' : ''}`}
            >
              {folder.name}
            </FolderLink>
            {i < ancestry.length - 1 ? <Separator /> : null}
          </li>
        ))}
      </ol>
    </nav>
  );
}
