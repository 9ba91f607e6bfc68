import { FileIcon, fileKind, ThumbnailImage } from '../../../recipient';
import type { BrowserItem } from '../../utils/browser-items';

/** A folder, drawn inline in the same family as FileIcon. Decorative. */
const folderSizes = { small: ['size-6 rounded', 'size-4'], normal: ['size-9 rounded-lg', 'size-5'], large: ['size-16 rounded-lg', 'size-9'] } as const;

export function FolderIcon({ size = 'normal' }: { size?: keyof typeof folderSizes }) {
  const [box, glyph] = folderSizes[size];
  return (
    <span className={`inline-flex shrink-0 items-center justify-center bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300 ${box}`}>
      <svg
        aria-hidden="true"
        focusable="false"
        viewBox="0 0 24 24"
        className={glyph}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinejoin="round"
      >
        <path d="M3 6.75A1.75 1.75 0 0 1 4.75 5h4.1l2 2.25h8.4A1.75 1.75 0 0 1 21 9v8.25A1.75 1.75 0 0 1 19.25 19H4.75A1.75 1.75 0 0 1 3 17.25z" />
        <path d="M3 10h18" />
      </svg>
    </span>
  );
}

/**
 * What stands for an item: a folder's icon, an image's preview (once the worker made one), or the
 * file kind's icon. Previews are decorative: the item's name is right beside them.
 */
export function ItemVisual({ item, layout }: { item: BrowserItem; layout: 'row' | 'card' }) {
  if (item.kind === 'folder') {
    return layout === 'card' ? (
      <span className="flex size-full items-center justify-center">
        <FolderIcon size="large" />
      </span>
    ) : (
      <FolderIcon />
    );
  }
  const { file } = item;
  if (file.thumbnailUrl) {
    return <ThumbnailImage file={file} className={layout === 'card' ? 'size-full' : 'size-9 shrink-0 rounded-md ring-1 ring-zinc-200 dark:ring-zinc-700'} />;
  }
  const icon = <FileIcon kind={fileKind(file.mimeType, file.name)} />;
  return layout === 'card' ? (
    <span className="flex size-full items-center justify-center">{icon}</span>
  ) : (
    <span className="flex size-9 shrink-0 items-center justify-center [&>span]:size-9">{icon}</span>
  );
}
