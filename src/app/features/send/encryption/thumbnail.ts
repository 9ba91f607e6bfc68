import { mediaKind } from '../../../../contract/media-types';

/** The sealed thumbnail's limits (issue 17): small enough to seal and list, and re-encoded so no EXIF survives. */
export const THUMBNAIL_SIDE = 256;
export const THUMBNAIL_MAX_BYTES = 32 * 1024;
/** Past this a photo is not decoded just for a thumbnail: decoding takes memory in proportion to its pixels. */
const MAX_SOURCE_BYTES = 40 * 1024 * 1024;
/** Types every browser decodes; SVG is left out (it is a document, not pixels). */
const thumbnailTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);

/** A video's frame or a PDF's first page gets this long: past it, the file just has no thumbnail. */
const MEDIA_TIMEOUT_MS = 15_000;

/** Something drawable, with its size in pixels. */
interface Picture {
  source: CanvasImageSource;
  width: number;
  height: number;
}

async function encode(picture: Picture, side: number, quality: number): Promise<Blob | null> {
  const scale = Math.min(1, side / Math.max(picture.width, picture.height));
  const width = Math.max(1, Math.round(picture.width * scale));
  const height = Math.max(1, Math.round(picture.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return null;
  // JPEG has no transparency: a white ground rather than black behind a transparent PNG.
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.drawImage(picture.source, 0, 0, width, height);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
}

/** Lower quality, then smaller, until the JPEG fits THUMBNAIL_MAX_BYTES; null when even the smallest does not. */
async function fitted(picture: Picture): Promise<Uint8Array<ArrayBuffer> | null> {
  for (const side of [THUMBNAIL_SIDE, 192, 128]) {
    for (const quality of [0.8, 0.6, 0.4]) {
      const blob = await encode(picture, side, quality);
      if (!blob) return null;
      if (blob.size <= THUMBNAIL_MAX_BYTES) return new Uint8Array(await blob.arrayBuffer());
    }
  }
  return null;
}

function withinTime<T>(work: Promise<T>): Promise<T> {
  return Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('took too long')), MEDIA_TIMEOUT_MS))]);
}

/**
 * A frame a second in (or halfway through a shorter video), as the browser's own player decodes it from the file on
 * disk: an object URL streams, nothing is read whole. A codec the browser cannot play gives no thumbnail.
 */
async function videoPoster(video: Blob, type: string): Promise<Uint8Array<ArrayBuffer> | null> {
  const element = document.createElement('video');
  // A container this browser says it cannot play is not tried (QuickTime is asked anyway: Chromium plays H.264 in it
  // but answers no; an untyped file is tried too). What it then fails to decode ends at its error event.
  if (type.startsWith('video/') && type !== 'video/quicktime' && element.canPlayType(type) === '') return null;
  const url = URL.createObjectURL(video);
  try {
    element.muted = true;
    element.preload = 'auto';
    const event = (name: string) =>
      new Promise<void>((resolve, reject) => {
        element.addEventListener(name, () => resolve(), { once: true });
        element.addEventListener('error', () => reject(new Error('not playable')), { once: true });
      });
    const loaded = event('loadeddata');
    element.src = url;
    await withinTime(loaded);
    const seeked = event('seeked');
    element.currentTime = Number.isFinite(element.duration) ? Math.min(1, element.duration / 2) : 0;
    await withinTime(seeked);
    if (!element.videoWidth || !element.videoHeight) return null;
    return await fitted({ source: element, width: element.videoWidth, height: element.videoHeight });
  } finally {
    element.removeAttribute('src');
    element.load();
    URL.revokeObjectURL(url);
  }
}

/**
 * A JPEG of at most THUMBNAIL_SIDE px on its long side and THUMBNAIL_MAX_BYTES, drawn through a canvas so only
 * pixels survive (no EXIF, no location): of an image, a video's frame, or a PDF's first page (pdf.js, loaded only
 * then, reading the file by slices). Null for a file that is none of these, or that this browser cannot draw: the
 * recipient then shows a file icon.
 */
export async function makeThumbnail(file: Blob, type: string, name = ''): Promise<Uint8Array<ArrayBuffer> | null> {
  const media = mediaKind(type, name);
  try {
    if (media === 'video') return await videoPoster(file, type);
    // pdf.js is loaded only for what starts like a PDF (its header may follow up to 1 KB of anything).
    if (media === 'pdf' && new TextDecoder('latin1').decode(await file.slice(0, 1024).arrayBuffer()).includes('%PDF-')) {
      const { pdfFirstPage } = await import('./pdf-first-page');
      const page = await withinTime(pdfFirstPage(file, THUMBNAIL_SIDE));
      return page && (await fitted(page));
    }
  } catch {
    return null;
  }
  if (!thumbnailTypes.has(type) || file.size > MAX_SOURCE_BYTES || typeof createImageBitmap !== 'function') return null;
  let bitmap: ImageBitmap;
  try {
    // Oriented as its EXIF says (the default), so the thumbnail stands the way the photo does.
    bitmap = await createImageBitmap(file);
  } catch {
    return null;
  }
  try {
    return await fitted({ source: bitmap, width: bitmap.width, height: bitmap.height });
  } finally {
    bitmap.close();
  }
}
