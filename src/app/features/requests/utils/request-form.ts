import { defineMessages, type IntlShape } from 'react-intl';
import { DEFAULT_MAX_FILES_PER_SUBMISSION, MAX_FILES_PER_SUBMISSION, type UploadRequest } from '../../../../contract/requests';
import type { FieldErrors } from '../../../lib/form-errors';
import { currentIntl } from '../../../lib/intl';
import type { CreateUploadRequestInput } from '../api/create-request';
import type { UpdateUploadRequestInput } from '../api/update-request';

/** The form's fields in the order they show, named as the API names them (so a 400's `path` finds its field). */
export const requestFields = ['title', 'message', 'collectionId', 'folderId', 'deadline', 'maxFiles', 'maxBytes', 'allowedTypes', 'requireEmail'] as const;
export type RequestField = (typeof requestFields)[number];

export const sizeUnits = { MB: 1_000_000, GB: 1_000_000_000 } as const;
export type SizeUnit = keyof typeof sizeUnits;

/** What the form holds: text as typed, so a half-typed number is kept as it is. */
export interface RequestDraft {
  title: string;
  message: string;
  collectionId: string;
  /** '' for the collection's top level. */
  folderId: string;
  /** A `datetime-local` value in the browser's time zone, or ''. */
  deadline: string;
  maxFiles: string;
  maxSize: string;
  maxSizeUnit: SizeUnit;
  allowedTypes: string[];
  requireEmail: boolean;
}

const presetLabels = defineMessages({
  images: { id: 'requests.typePresets.images', defaultMessage: 'Images' },
  pdf: { id: 'requests.typePresets.pdf', defaultMessage: 'PDF' },
  videos: { id: 'requests.typePresets.videos', defaultMessage: 'Videos' },
  audio: { id: 'requests.typePresets.audio', defaultMessage: 'Audio' },
});

/** Types to switch on with one press; `label` is formatted where shown. */
export const typePresets = [
  { label: presetLabels.images, type: 'image/*' },
  { label: presetLabels.pdf, type: 'application/pdf' },
  { label: presetLabels.videos, type: 'video/*' },
  { label: presetLabels.audio, type: 'audio/*' },
] as const;

/** The API's rule: `type/subtype` or `type/*`, lower case. */
const MIME_OR_WILDCARD = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126})$/;

export function isMimeType(value: string): boolean {
  return MIME_OR_WILDCARD.test(value);
}

/** Said of a typed type that is not one, by the field as it is added and by the form's check. */
export function notAFileType(type: string, intl: IntlShape = currentIntl()): string {
  return intl.formatMessage(
    {
      id: 'requests.form.notAFileType',
      defaultMessage: '“{type}” is not a file type: use a MIME type such as application/pdf, or a family such as image/*.',
    },
    { type },
  );
}

/** "image/*, application/pdf" → the types, lower-cased, without blanks. */
export function parseTypes(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a `datetime-local` value in the browser's time zone (to the minute). */
export function toDateTimeLocal(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value, read in the browser's time zone, as an ISO instant; null when unreadable. */
export function fromDateTimeLocal(value: string): string | null {
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** Bytes as the form shows them: whole gigabytes in GB, anything else in MB. */
export function sizeFromBytes(bytes: number | null): { maxSize: string; maxSizeUnit: SizeUnit } {
  if (bytes === null) return { maxSize: '', maxSizeUnit: 'GB' };
  if (bytes % sizeUnits.GB === 0) return { maxSize: String(bytes / sizeUnits.GB), maxSizeUnit: 'GB' };
  return { maxSize: String(Math.round((bytes / sizeUnits.MB) * 1000) / 1000), maxSizeUnit: 'MB' };
}

/** Decimal units, as sizes show everywhere in the product: 1 GB = 1,000,000,000 bytes. */
export function bytesFromSize(size: string, unit: SizeUnit): number {
  return Math.round(Number(size) * sizeUnits[unit]);
}

export function draftFromRequest(request: UploadRequest | null): RequestDraft {
  if (!request) {
    return {
      title: '',
      message: '',
      collectionId: '',
      folderId: '',
      deadline: '',
      // The server's default, shown so the owner sees the number in force and can change it.
      maxFiles: String(DEFAULT_MAX_FILES_PER_SUBMISSION),
      maxSize: '',
      maxSizeUnit: 'GB',
      allowedTypes: [],
      requireEmail: false,
    };
  }
  return {
    title: request.title,
    message: request.message ?? '',
    collectionId: request.collectionId ?? '',
    folderId: request.folderId ?? '',
    deadline: request.deadline ? toDateTimeLocal(request.deadline) : '',
    maxFiles: request.maxFiles === null ? '' : String(request.maxFiles),
    ...sizeFromBytes(request.maxBytes),
    allowedTypes: [...request.allowedTypes],
    requireEmail: request.requireEmail,
  };
}

const isWhole = (text: string) => /^\d+$/.test(text.trim());

/**
 * The API's limits, checked here so the message comes at once and names the field. `initial` is
 * the request being edited: a deadline it already had may have passed and is not the user's doing.
 */
export function validateRequestDraft(
  draft: RequestDraft,
  { now = Date.now(), initial, intl = currentIntl() }: { now?: number; initial?: RequestDraft; intl?: IntlShape } = {},
): FieldErrors<RequestField> {
  const errors: FieldErrors<RequestField> = {};
  const tooLong = (max: number) =>
    intl.formatMessage({ id: 'requests.form.tooLong', defaultMessage: 'Use at most {max, plural, one {# character} other {# characters}}.' }, { max });
  const title = draft.title.trim();
  if (!title) errors.title = intl.formatMessage({ id: 'requests.form.titleRequired', defaultMessage: 'Give the request a title.' });
  else if (title.length > 200) errors.title = tooLong(200);
  if (draft.message.trim().length > 2000) errors.message = tooLong(2000);
  if (!draft.collectionId) errors.collectionId = intl.formatMessage({ id: 'requests.form.collectionRequired', defaultMessage: 'Choose the collection the files go into.' });
  if (draft.deadline && draft.deadline !== initial?.deadline) {
    const at = fromDateTimeLocal(draft.deadline);
    if (at === null) errors.deadline = intl.formatMessage({ id: 'requests.form.deadlineUnreadable', defaultMessage: 'Enter a date and time, or clear the deadline.' });
    else if (Date.parse(at) <= now) errors.deadline = intl.formatMessage({ id: 'requests.form.deadlinePast', defaultMessage: 'Choose a time in the future.' });
  }
  const maxFiles = draft.maxFiles.trim();
  if (maxFiles) {
    if (!isWhole(maxFiles) || Number(maxFiles) < 1)
      errors.maxFiles = intl.formatMessage(
        {
          id: 'requests.form.maxFilesNotWhole',
          defaultMessage: 'Enter a whole number of at least 1, or leave it empty for the default ({defaultCount, number}).',
        },
        { defaultCount: DEFAULT_MAX_FILES_PER_SUBMISSION },
      );
    else if (Number(maxFiles) > MAX_FILES_PER_SUBMISSION)
      errors.maxFiles = intl.formatMessage({ id: 'requests.form.maxFilesTooMany', defaultMessage: 'Use at most {max, number}.' }, { max: MAX_FILES_PER_SUBMISSION });
  }
  const maxSize = draft.maxSize.trim();
  if (maxSize) {
    const value = Number(maxSize);
    if (!Number.isFinite(value) || value <= 0)
      errors.maxBytes = intl.formatMessage({ id: 'requests.form.maxSizeNotPositive', defaultMessage: 'Enter a size above 0, or leave it empty for no limit.' });
    else if (bytesFromSize(maxSize, draft.maxSizeUnit) > Number.MAX_SAFE_INTEGER)
      errors.maxBytes = intl.formatMessage({ id: 'requests.form.maxSizeTooBig', defaultMessage: 'That is more than any upload can be.' });
  }
  const wrong = draft.allowedTypes.find((t) => !isMimeType(t));
  if (wrong) errors.allowedTypes = notAFileType(wrong, intl);
  else if (draft.allowedTypes.length > 50)
    errors.allowedTypes = intl.formatMessage(
      { id: 'requests.form.tooManyTypes', defaultMessage: '{max, plural, one {Choose at most # type.} other {Choose at most # types.}}' },
      { max: 50 },
    );
  return errors;
}

const orNull = (text: string) => (text.trim() ? text.trim() : null);
const deadlineOf = (draft: RequestDraft) => (draft.deadline ? fromDateTimeLocal(draft.deadline) : null);
const maxFilesOf = (draft: RequestDraft) => (draft.maxFiles.trim() ? Number(draft.maxFiles.trim()) : null);
const maxBytesOf = (draft: RequestDraft) => (draft.maxSize.trim() ? bytesFromSize(draft.maxSize.trim(), draft.maxSizeUnit) : null);

/** The body of `POST /requests` for a valid draft. */
export function createBody(draft: RequestDraft): CreateUploadRequestInput {
  return {
    title: draft.title.trim(),
    message: orNull(draft.message),
    collectionId: draft.collectionId,
    folderId: orNull(draft.folderId),
    deadline: deadlineOf(draft),
    maxFiles: maxFilesOf(draft),
    maxBytes: maxBytesOf(draft),
    allowedTypes: draft.allowedTypes,
    requireEmail: draft.requireEmail,
  };
}

/**
 * The body of `PATCH /requests/{id}`: only what the user changed, so an untouched deadline that
 * has passed meanwhile is not sent back (the API would refuse a deadline in the past).
 */
export function changesBody(initial: RequestDraft, draft: RequestDraft): UpdateUploadRequestInput {
  const body: UpdateUploadRequestInput = {};
  if (draft.title.trim() !== initial.title.trim()) body.title = draft.title.trim();
  if (draft.message.trim() !== initial.message.trim()) body.message = orNull(draft.message);
  if (draft.collectionId !== initial.collectionId) body.collectionId = draft.collectionId;
  if (draft.collectionId !== initial.collectionId || draft.folderId !== initial.folderId) body.folderId = orNull(draft.folderId);
  if (draft.deadline !== initial.deadline) body.deadline = deadlineOf(draft);
  if (maxFilesOf(draft) !== maxFilesOf(initial)) body.maxFiles = maxFilesOf(draft);
  if (maxBytesOf(draft) !== maxBytesOf(initial)) body.maxBytes = maxBytesOf(draft);
  if ([...draft.allowedTypes].sort().join() !== [...initial.allowedTypes].sort().join()) body.allowedTypes = draft.allowedTypes;
  if (draft.requireEmail !== initial.requireEmail) body.requireEmail = draft.requireEmail;
  return body;
}
