/** The sealed thumbnail's limits (issue 17): small enough to seal and list, and re-encoded so no EXIF survives. */
export const THUMBNAIL_SIDE = 256;
export const THUMBNAIL_MAX_BYTES = 32 * 1024;
/** Past this a photo is not decoded just for a thumbnail: decoding takes memory in proportion to its pixels. */
const MAX_SOURCE_BYTES = 40 * 1024 * 1024;
/** Types every browser decodes; SVG is left out (it is a document, not pixels). */
const thumbnailTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);

async function encode(bitmap: ImageBitmap, side: number, quality: number): Promise<Blob | null> {
  const scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return null;
  // JPEG has no transparency: a white ground rather than black behind a transparent PNG.
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.drawImage(bitmap, 0, 0, width, height);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
}

/**
 * A JPEG of at most THUMBNAIL_SIDE px on its long side and THUMBNAIL_MAX_BYTES, drawn through a canvas so only
 * pixels survive (no EXIF, no location); lower quality, then smaller, until it fits. Null for a file that is not a
 * decodable image, or a browser that cannot draw one: the recipient then shows a file icon.
 */
export async function makeThumbnail(image: Blob, type: string): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!thumbnailTypes.has(type) || image.size > MAX_SOURCE_BYTES || typeof createImageBitmap !== 'function') return null;
  let bitmap: ImageBitmap;
  try {
    // Oriented as its EXIF says (the default), so the thumbnail stands the way the photo does.
    bitmap = await createImageBitmap(image);
  } catch {
    return null;
  }
  try {
    for (const side of [THUMBNAIL_SIDE, 192, 128]) {
      for (const quality of [0.8, 0.6, 0.4]) {
        const blob = await encode(bitmap, side, quality);
        if (!blob) return null;
        if (blob.size <= THUMBNAIL_MAX_BYTES) return new Uint8Array(await blob.arrayBuffer());
      }
    }
    return null;
  } finally {
    bitmap.close();
  }
}
