import type { PublicUploadRequest } from '../../../../contract/public-requests';
import { emailError } from '../../auth';
import { isApiRequestError } from '../../../lib/api-error';
import { formatBytes, formatInteger } from '../../../lib/format';
import type { UploaderDetails } from '../api/public-request-api';

const exactTypes: Record<string, string> = {
  'application/pdf': 'PDF documents',
  'application/zip': 'ZIP archives',
  'application/x-zip-compressed': 'ZIP archives',
  'application/msword': 'Word documents',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word documents',
  'application/vnd.oasis.opendocument.text': 'OpenDocument texts',
  'application/vnd.ms-excel': 'Excel spreadsheets',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel spreadsheets',
  'application/vnd.oasis.opendocument.spreadsheet': 'OpenDocument spreadsheets',
  'application/vnd.ms-powerpoint': 'PowerPoint presentations',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PowerPoint presentations',
  'application/json': 'JSON files',
  'text/plain': 'plain text files',
  'text/csv': 'CSV files',
  'image/jpeg': 'JPEG images',
  'image/png': 'PNG images',
  'image/gif': 'GIF images',
  'image/webp': 'WebP images',
  'image/heic': 'HEIC images',
  'image/svg+xml': 'SVG images',
  'image/tiff': 'TIFF images',
  'video/mp4': 'MP4 videos',
  'video/quicktime': 'QuickTime videos',
  'audio/mpeg': 'MP3 audio files',
  'audio/wav': 'WAV audio files',
};

const wholeKinds: Record<string, string> = {
  image: 'images',
  video: 'videos',
  audio: 'audio files',
  text: 'text files',
  font: 'fonts',
  model: '3D models',
};

/** One allowed type in words: `image/*` → "images", `application/pdf` → "PDF documents". */
export function typeInWords(type: string): string {
  const t = type.toLowerCase();
  if (exactTypes[t]) return exactTypes[t];
  const [kind = '', sub = ''] = t.split('/');
  if (sub === '*') return wholeKinds[kind] ?? `${kind} files`;
  const noun = kind === 'image' ? 'images' : kind === 'video' ? 'videos' : kind === 'audio' ? 'audio files' : 'files';
  const name = sub.replace(/^(x-|vnd\.)/, '').split('+')[0]!;
  return name.length > 0 && name.length <= 6 ? `${name.toUpperCase()} ${noun}` : `${t} files`;
}

/** The allowed types in words, each once: "images, PDF documents, or Word documents"; null for any type. */
export function allowedTypesInWords(types: readonly string[]): string | null {
  if (types.length === 0) return null;
  const words = [...new Set(types.map(typeInWords))];
  return new Intl.ListFormat('en', { style: 'long', type: 'disjunction' }).format(words);
}

export const fileCountLabel = (n: number) => `${formatInteger(n)} ${n === 1 ? 'file' : 'files'}`;

/** The limits of one delivery (a submission): "Up to 10 files, 2 GB in all". */
export function limitsInWords({ maxFiles, maxBytes }: Pick<PublicUploadRequest, 'maxFiles' | 'maxBytes'>): string {
  if (maxFiles !== null && maxBytes !== null) return `Up to ${fileCountLabel(maxFiles)}, ${formatBytes(maxBytes)} in all`;
  if (maxFiles !== null) return `Up to ${fileCountLabel(maxFiles)}`;
  if (maxBytes !== null) return `Up to ${formatBytes(maxBytes)} in all`;
  return 'As many files as you like';
}

export const detailFields = ['name', 'email', 'message'] as const;
export type DetailField = (typeof detailFields)[number];

/** The uploader's details as the server checks them (StartSubmissionRequestSchema), in the page's words. */
export function detailErrors(details: UploaderDetails, requireEmail: boolean): Partial<Record<DetailField, string>> {
  const errors: Partial<Record<DetailField, string>> = {};
  const name = details.name.trim();
  if (name === '') errors.name = 'Enter your name';
  else if (name.length > 100) errors.name = 'Use at most 100 characters';
  const email = details.email.trim();
  if (email !== '' || requireEmail) errors.email = emailError(email);
  if (details.message.trim().length > 2000) errors.message = 'Use at most 2,000 characters';
  return errors;
}

/**
 * What the page says when the server would not take a batch of files (`400 invalid_request` naming
 * the rule), in full and in the request's units. Other errors keep their own message.
 */
export function refusalMessage(error: unknown, request: Pick<PublicUploadRequest, 'maxFiles' | 'maxBytes'>): unknown {
  if (!isApiRequestError(error) || error.status !== 400) return error;
  const field = error.fieldErrors[0];
  if (!field) return error;
  let rule = field.message;
  if (/files per submission/.test(rule) && request.maxFiles !== null)
    rule = `this request takes at most ${fileCountLabel(request.maxFiles)} each time you send`;
  else if (/bytes per submission/.test(rule) && request.maxBytes !== null)
    rule = `this request takes at most ${formatBytes(request.maxBytes)} each time you send`;
  else if (field.path === 'email' || field.path === 'name' || field.path === 'message') rule = `your ${field.path}: ${rule}`;
  return new Error(`These files were not accepted: ${rule}.`);
}
