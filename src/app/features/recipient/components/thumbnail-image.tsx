import { mediaKind } from '../../../../contract/media-types';

/**
 * A file's thumbnail in a tile: an image's, a PDF's first page or a video's poster (marked with a play sign, so a
 * still is not taken for a photo) filling the tile, or an audio file's waveform whole across it. Decorative where
 * the file's name is beside it (`alt=""`), or named by `alt`.
 */
export function ThumbnailImage({
  file,
  alt = '',
  loading = 'lazy',
  className = 'size-full',
}: {
  file: { mimeType: string; name: string; thumbnailUrl?: string | null | undefined };
  alt?: string;
  loading?: 'lazy' | 'eager';
  className?: string;
}) {
  const kind = mediaKind(file.mimeType, file.name);
  return (
    <span className={`relative block overflow-hidden ${className}`}>
      <img
        src={file.thumbnailUrl ?? undefined}
        alt={alt}
        loading={loading}
        decoding="async"
        draggable={false}
        className={kind === 'audio' ? 'size-full object-contain p-1' : 'size-full object-cover'}
      />
      {kind === 'video' ? (
        <span aria-hidden="true" className="absolute inset-0 m-auto flex size-8 max-h-[70%] max-w-[70%] items-center justify-center rounded-full bg-black/60 text-white">
          <svg viewBox="0 0 16 16" className="size-1/2 translate-x-px" fill="currentColor">
            <path d="M4 2.5v11l9-5.5z" />
          </svg>
        </span>
      ) : null}
    </span>
  );
}
