import type { IntlShape } from 'react-intl';
import { bareType, extensionOf, mediaKind } from '../../../../contract/media-types';
import { currentIntl } from '../../../lib/intl';

export type FileKind = 'image' | 'video' | 'audio' | 'pdf' | 'archive' | 'other';

const archiveTypes = new Set([
  'application/zip',
  'application/x-zip-compressed',
  'application/gzip',
  'application/x-gzip',
  'application/x-tar',
  'application/x-7z-compressed',
  'application/x-rar-compressed',
  'application/vnd.rar',
  'application/x-bzip2',
  'application/x-xz',
  'application/zstd',
]);

const archiveExtensions = new Set(['zip', 'gz', 'tgz', 'tar', '7z', 'rar', 'bz2', 'xz', 'zst']);

/** The broad kind of a file, from its type (as uploaded) and, failing that, its name. */
export function fileKind(mimeType: string, name: string): FileKind {
  const type = bareType(mimeType);
  const ext = extensionOf(name);
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (type === 'application/pdf' || ext === 'pdf') return 'pdf';
  if (archiveTypes.has(type) || archiveExtensions.has(ext)) return 'archive';
  return 'other';
}

/**
 * "PNG image", "PDF document", "ZIP archive", "File": in the page's language (`intl`, from `useIntl()` in a component;
 * the page's own when left out).
 */
export function fileTypeLabel(mimeType: string, name: string, intl: IntlShape = currentIntl()): string {
  const kind = fileKind(mimeType, name);
  const ext = extensionOf(name);
  if (ext && ext.length <= 5)
    return intl.formatMessage(
      {
        id: 'fileKind.typed',
        defaultMessage: '{kind, select, image {{ext} image} video {{ext} video} audio {{ext} audio} pdf {{ext} document} archive {{ext} archive} other {{ext} file}}',
      },
      { kind, ext: ext.toUpperCase() },
    );
  return intl.formatMessage(
    {
      id: 'fileKind.untyped',
      defaultMessage: '{kind, select, image {Image} video {Video} audio {Audio} pdf {PDF document} archive {Archive} other {File}}',
    },
    { kind },
  );
}

/** How the lightbox shows a file: its image, a player, the PDF viewer, or its text (a CSV as a table). */
export type PreviewKind = 'image' | 'video' | 'audio' | 'pdf' | 'text' | 'csv';

const textTypes = new Set(['application/json', 'application/xml', 'application/javascript', 'application/x-yaml', 'application/yaml', 'application/toml', 'application/x-sh', 'application/sql']);
const textExtensions = new Set(
  'txt md markdown log json xml yaml yml toml ini cfg conf env srt vtt js mjs cjs ts tsx jsx css scss html htm svg py rb go rs java kt swift c h cpp hpp cs php sh bash zsh sql r lua pl dart scala tex'.split(' '),
);

/**
 * How a file can be previewed: video, audio, PDF, text and CSV only when `streamable`, that is when the page can hand
 * the browser a link to the bytes (never for an end-to-end encrypted transfer, whose bytes only this page can open);
 * otherwise its thumbnail (an image's, or a video's poster or a PDF's first page) as an image. Null for none.
 */
export function previewKind(file: { mimeType: string; name: string; thumbnailUrl: string | null }, streamable: boolean): PreviewKind | null {
  if (streamable) {
    const media = mediaKind(file.mimeType, file.name);
    if (media) return media;
  }
  if (file.thumbnailUrl) return 'image';
  if (!streamable) return null;
  const type = bareType(file.mimeType);
  const ext = extensionOf(file.name);
  if (type === 'text/csv' || ext === 'csv') return 'csv';
  if (type.startsWith('text/') || textTypes.has(type) || textExtensions.has(ext)) return 'text';
  return null;
}
