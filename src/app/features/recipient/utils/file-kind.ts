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

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The broad kind of a file, from its type (as uploaded) and, failing that, its name. */
export function fileKind(mimeType: string, name: string): FileKind {
  const type = mimeType.toLowerCase().split(';')[0]!.trim();
  const ext = extensionOf(name);
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (type === 'application/pdf' || ext === 'pdf') return 'pdf';
  if (archiveTypes.has(type) || archiveExtensions.has(ext)) return 'archive';
  return 'other';
}

const nouns: Record<FileKind, string> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  pdf: 'document',
  archive: 'archive',
  other: 'file',
};

/** "PNG image", "PDF document", "ZIP archive", "File". */
export function fileTypeLabel(mimeType: string, name: string): string {
  const kind = fileKind(mimeType, name);
  const ext = extensionOf(name);
  if (ext && ext.length <= 5) return `${ext.toUpperCase()} ${nouns[kind]}`;
  if (kind === 'pdf') return 'PDF document';
  const noun = nouns[kind];
  return noun.charAt(0).toUpperCase() + noun.slice(1);
}
