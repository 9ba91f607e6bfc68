/**
 * Which files are media the product can show, by their type as uploaded and, when the uploader's browser did not
 * know it, their name. One list for the server's worker (which makes posters, waveforms and first pages) and the
 * browser (which offers a player or a viewer), so both agree on what a file is. Free of zod: the recipient page
 * loads it on first paint.
 */

export type MediaKind = 'video' | 'audio' | 'pdf';

/** Containers a browser plays (whether it decodes the codec inside is its own to say) and the worker takes a poster from. */
const videoTypes = new Set(['video/mp4', 'video/webm', 'video/quicktime', 'video/ogg']);
const videoExtensions = new Set(['mp4', 'm4v', 'webm', 'mov', 'ogv']);
const audioTypes = new Set(['audio/mpeg', 'audio/mp3', 'audio/mp4', 'audio/aac', 'audio/x-m4a', 'audio/wav', 'audio/x-wav', 'audio/wave', 'audio/flac', 'audio/x-flac', 'audio/ogg', 'audio/opus', 'audio/webm']);
const audioExtensions = new Set(['mp3', 'm4a', 'aac', 'wav', 'flac', 'ogg', 'oga', 'opus']);

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The type without parameters, lower-cased: `Video/MP4; codecs=…` is `video/mp4`. */
export function bareType(mimeType: string): string {
  return mimeType.toLowerCase().split(';')[0]!.trim();
}

/** A video, an audio file or a PDF, or null for anything else (an image included: that is sharp's, not a player's). */
export function mediaKind(mimeType: string, name: string): MediaKind | null {
  const type = bareType(mimeType);
  const ext = extensionOf(name);
  // A type the uploader's browser did not know: the name decides.
  const untyped = type === '' || type === 'application/octet-stream';
  if (videoTypes.has(type) || (untyped && videoExtensions.has(ext))) return 'video';
  if (audioTypes.has(type) || (untyped && audioExtensions.has(ext))) return 'audio';
  if (type === 'application/pdf' || ext === 'pdf') return 'pdf';
  return null;
}
