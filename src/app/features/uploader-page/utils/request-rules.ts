import type { IntlShape } from 'react-intl';
import type { PublicUploadRequest } from '../../../../contract/public-requests';
import { emailError } from '../../auth';
import { isApiRequestError } from '../../../lib/api-error';
import { formatBytes } from '../../../lib/format';
import { currentIntl } from '../../../lib/intl';
import type { UploaderDetails } from '../api/public-request-api';

/** Types people know by name, each the key of its words in `upload.types.known`. */
const exactTypes: Record<string, string> = {
  'application/pdf': 'pdf',
  'application/zip': 'zip',
  'application/x-zip-compressed': 'zip',
  'application/msword': 'word',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'word',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.ms-excel': 'excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'excel',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.ms-powerpoint': 'powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'powerpoint',
  'application/json': 'json',
  'text/plain': 'plainText',
  'text/csv': 'csv',
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/svg+xml': 'svg',
  'image/tiff': 'tiff',
  'video/mp4': 'mp4',
  'video/quicktime': 'quicktime',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
};

/** The kinds a `kind/*` type names in words (`upload.types.whole`). */
const wholeKinds = new Set(['image', 'video', 'audio', 'text', 'font', 'model']);

/** One allowed type in words: `image/*` → "images", `application/pdf` → "PDF documents". */
export function typeInWords(type: string, intl: IntlShape = currentIntl()): string {
  const t = type.toLowerCase();
  const known = Object.hasOwn(exactTypes, t) ? exactTypes[t] : undefined;
  if (known)
    return intl.formatMessage(
      {
        id: 'upload.types.known',
        defaultMessage:
          '{type, select, pdf {PDF documents} zip {ZIP archives} word {Word documents} odt {OpenDocument texts} excel {Excel spreadsheets} ods {OpenDocument spreadsheets} powerpoint {PowerPoint presentations} json {JSON files} plainText {plain text files} csv {CSV files} jpeg {JPEG images} png {PNG images} gif {GIF images} webp {WebP images} heic {HEIC images} svg {SVG images} tiff {TIFF images} mp4 {MP4 videos} quicktime {QuickTime videos} mp3 {MP3 audio files} wav {WAV audio files} other {files}}',
      },
      { type: known },
    );
  const [kind = '', sub = ''] = t.split('/');
  if (sub === '*') {
    if (!wholeKinds.has(kind)) return intl.formatMessage({ id: 'upload.types.raw', defaultMessage: '{type} files' }, { type: kind });
    return intl.formatMessage(
      {
        id: 'upload.types.whole',
        defaultMessage: '{kind, select, image {images} video {videos} audio {audio files} text {text files} font {fonts} model {3D models} other {files}}',
      },
      { kind },
    );
  }
  const name = sub.replace(/^(x-|vnd\.)/, '').split('+')[0]!;
  if (name.length === 0 || name.length > 6) return intl.formatMessage({ id: 'upload.types.raw', defaultMessage: '{type} files' }, { type: t });
  return intl.formatMessage(
    {
      id: 'upload.types.named',
      defaultMessage: '{kind, select, image {{name} images} video {{name} videos} audio {{name} audio files} other {{name} files}}',
    },
    { kind, name: name.toUpperCase() },
  );
}

/** The allowed types in words, each once: "images, PDF documents, or Word documents"; null for any type. */
export function allowedTypesInWords(types: readonly string[], intl: IntlShape = currentIntl()): string | null {
  if (types.length === 0) return null;
  const words = [...new Set(types.map((type) => typeInWords(type, intl)))];
  return intl.formatList(words, { style: 'long', type: 'disjunction' });
}

/** The limits of one delivery (a submission): "Up to 10 files, 2 GB in all". */
export function limitsInWords({ maxFiles, maxBytes }: Pick<PublicUploadRequest, 'maxFiles' | 'maxBytes'>, intl: IntlShape = currentIntl()): string {
  if (maxFiles !== null && maxBytes !== null)
    return intl.formatMessage(
      { id: 'upload.limits.filesAndSize', defaultMessage: 'Up to {count, plural, one {# file} other {# files}}, {size} in all' },
      { count: maxFiles, size: formatBytes(maxBytes) },
    );
  if (maxFiles !== null) return intl.formatMessage({ id: 'upload.limits.files', defaultMessage: 'Up to {count, plural, one {# file} other {# files}}' }, { count: maxFiles });
  if (maxBytes !== null) return intl.formatMessage({ id: 'upload.limits.size', defaultMessage: 'Up to {size} in all' }, { size: formatBytes(maxBytes) });
  return intl.formatMessage({ id: 'upload.limits.none', defaultMessage: 'As many files as you like' });
}

export const detailFields = ['name', 'email', 'message'] as const;
export type DetailField = (typeof detailFields)[number];

const tooLong = (max: number, intl: IntlShape) =>
  intl.formatMessage({ id: 'upload.details.tooLong', defaultMessage: 'Use at most {max, plural, one {# character} other {# characters}}' }, { max });

/** The uploader's details as the server checks them (StartSubmissionRequestSchema), in the page's words. */
export function detailErrors(details: UploaderDetails, requireEmail: boolean, intl: IntlShape = currentIntl()): Partial<Record<DetailField, string>> {
  const errors: Partial<Record<DetailField, string>> = {};
  const name = details.name.trim();
  if (name === '') errors.name = intl.formatMessage({ id: 'upload.details.nameMissing', defaultMessage: 'Enter your name' });
  else if (name.length > 100) errors.name = tooLong(100, intl);
  const email = details.email.trim();
  // The sign-in's rule for an address (emailError), in this page's words.
  if ((email !== '' || requireEmail) && emailError(email) !== undefined)
    errors.email =
      email === ''
        ? intl.formatMessage({ id: 'upload.details.emailMissing', defaultMessage: 'Enter your email address' })
        : intl.formatMessage({ id: 'upload.details.emailInvalid', defaultMessage: 'Enter a valid email address' });
  if (details.message.trim().length > 2000) errors.message = tooLong(2000, intl);
  return errors;
}

/**
 * What the page says when the server would not take a batch of files (`400 invalid_request` naming
 * the rule), in full and in the request's units. Other errors keep their own message; a rule this
 * page does not know keeps the server's words (English) inside the page's sentence.
 */
export function refusalMessage(error: unknown, request: Pick<PublicUploadRequest, 'maxFiles' | 'maxBytes'>, intl: IntlShape = currentIntl()): unknown {
  if (!isApiRequestError(error) || error.status !== 400) return error;
  const field = error.fieldErrors[0];
  if (!field) return error;
  const rule = field.message;
  if (/files per submission/.test(rule) && request.maxFiles !== null)
    return new Error(
      intl.formatMessage(
        {
          id: 'upload.refused.maxFiles',
          defaultMessage: 'These files were not accepted: this request takes at most {count, plural, one {# file} other {# files}} each time you send.',
        },
        { count: request.maxFiles },
      ),
    );
  if (/bytes per submission/.test(rule) && request.maxBytes !== null)
    return new Error(
      intl.formatMessage(
        { id: 'upload.refused.maxSize', defaultMessage: 'These files were not accepted: this request takes at most {size} each time you send.' },
        { size: formatBytes(request.maxBytes) },
      ),
    );
  if (field.path === 'email' || field.path === 'name' || field.path === 'message')
    return new Error(
      intl.formatMessage(
        {
          id: 'upload.refused.detail',
          defaultMessage: 'These files were not accepted: {field, select, name {your name} email {your email} other {your message}}: {reason}.',
        },
        { field: field.path, reason: rule },
      ),
    );
  return new Error(intl.formatMessage({ id: 'upload.refused.reason', defaultMessage: 'These files were not accepted: {reason}.' }, { reason: rule }));
}
