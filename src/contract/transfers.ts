import { z } from '@hono/zod-openapi';
import { EmailSchema } from './dashboard.js';
import { LOCALES } from './locales.js';
import { NextCursorSchema, cursorParam, limitParam } from './pagination.js';

/**
 * Transfers: a draft is created with its files, the files are streamed to the tus endpoint, the
 * draft is finalized (sent), and recipients download through the link until it expires.
 */

export const transferStatuses = ['active', 'expired', 'infected', 'removed'] as const;
export const TransferStatusSchema = z.enum(transferStatuses).openapi({
  description:
    '`active` (a draft or a live link), `expired` (its expiry passed), `removed` (revoked by its owner; our choice, so that a revoked link reads differently from an expired one), `infected` (a virus scan found malware). Treat unknown values as unknown.',
});

/** C0/C1 controls and bidirectional overrides/isolates, removed from names at creation. */
const UNSAFE_NAME_CHARACTERS = /[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;
/**
 * A lone surrogate cannot be stored as UTF-8: it becomes U+FFFD here, as the database would make
 * it, so the name compared in code is the name stored (folder paths are matched on it).
 */
const LONE_SURROGATE = /\p{Cs}/gu;
export const cleanFileName = (name: string) => name.replace(LONE_SURROGATE, '\uFFFD').replace(UNSAFE_NAME_CHARACTERS, '').trim();

/** A plain `type/subtype`, any case. No regex flags: the OpenAPI `pattern` cannot carry them. */
export const MIME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;

/** NUL is refused, not cleaned away like other controls: no file system allows it in a name. */
const noNul = (field: string) => [(v: string) => !v.includes('\u0000'), { error: `${field} must not contain NUL characters` }] as const;

/** `.` and `..` name the folder itself and its parent in every file system (and in a zip): never a file's or folder's own name. */
const isDotSegment = (segment: string) => segment === '.' || segment === '..';

/** A relative folder path; it can never climb out of its folder. */
const relativePath = z
  .string()
  .max(1024, { error: 'path must be at most 1024 characters' })
  .refine(...noNul('path'))
  .transform((p) =>
    cleanFileName(p)
      .replace(/\\/g, '/')
      .split('/')
      .filter((s) => s !== '' && s !== '.')
      .join('/'),
  )
  .refine((p) => !p.split('/').some(isDotSegment), { error: 'path must not contain ".." segments' })
  .refine((p) => !/^[A-Za-z]:/.test(p), { error: 'path must be relative' })
  .transform((p) => (p === '' ? null : p));

/**
 * A file or folder name: NUL refused, other controls and bidirectional overrides removed, no
 * slashes (folders are paths or ids, never part of a name), not `.` or `..`, at most 255
 * characters. Every field that takes a file or folder name uses this.
 */
export const fileNameField = (field = 'name') =>
  z
    .string({ error: `${field} is required` })
    .max(255, { error: `${field} must be at most 255 characters` })
    .refine(...noNul(field))
    .transform(cleanFileName)
    .refine((n) => n.length > 0, { error: `${field} must not be empty` })
    .refine((n) => !n.includes('/') && !n.includes('\\'), { error: `${field} must not contain slashes; use path for folders` })
    .refine((n) => !isDotSegment(n), { error: `${field} must not be "." or ".."` });

/** A file's media type as a client declares it: a plain `type/subtype`, stored lower-cased; optional. */
const mimeTypeField = (description: string) =>
  z
    .string()
    .regex(MIME_PATTERN, { error: 'mimeType must be a plain type/subtype' })
    .transform((m) => m.toLowerCase())
    .optional()
    .openapi({ description, example: 'application/pdf' });

export const FileToUploadSchema = z
  .object({
    name: fileNameField().openapi({ description: 'File name. NUL, slashes and the names `.` and `..` are refused; other control characters and bidirectional overrides are removed.', example: 'report.pdf' }),
    size: z
      .number({ error: 'size is required' })
      .int({ error: 'size must be a whole number of bytes' })
      .min(0, { error: 'size must not be negative' })
      .max(Number.MAX_SAFE_INTEGER)
      .openapi({ description: 'Exact size in bytes. The upload must be exactly this long.', example: 1048576 }),
    mimeType: mimeTypeField('A plain `type/subtype` (no parameters). Defaults to `application/octet-stream`.'),
    path: relativePath
      .nullable()
      .optional()
      .openapi({ description: 'Relative folder path inside an uploaded folder, for example `photos/2026`. No `..`, no absolute paths.', example: 'photos/2026' }),
  })
  .openapi('FileToUpload');

/** The longest URL an import takes: signed bucket links are long, but not this long. */
export const MAX_IMPORT_URL_LENGTH = 4096;

export const ImportRequestSchema = z
  .object({
    url: z
      .string({ error: 'url is required' })
      .trim()
      .max(MAX_IMPORT_URL_LENGTH, { error: `url must be at most ${MAX_IMPORT_URL_LENGTH} characters` })
      .pipe(z.url({ protocol: /^https?$/, error: 'url must be an https URL' }))
      .openapi({
        description:
          'Where the service fetches the file: an `https` URL (plain `http` only where the operator allows it). Every address it resolves to, and every redirect (at most 5), is checked when connecting: addresses of the server\'s own networks (loopback, private, link-local) are refused.',
        example: 'https://downloads.example.com/report.pdf',
      }),
    name: fileNameField()
      .optional()
      .openapi({ description: 'File name. Default: from the response\'s `Content-Disposition`, else the last segment of the URL\'s path.', example: 'report.pdf' }),
    size: z
      .number({ error: 'size must be a number' })
      .int({ error: 'size must be a whole number of bytes' })
      .min(0, { error: 'size must not be negative' })
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .openapi({
        description: 'The exact size in bytes, if known: a body of any other length fails the import. Without it, the response\'s `Content-Length` must say.',
        example: 73400320,
      }),
    mimeType: mimeTypeField("A plain `type/subtype`. Default: the response's `Content-Type`, else `application/octet-stream`."),
    path: relativePath.nullable().optional().openapi({ description: 'Relative folder path, as for uploaded files.', example: 'reports/2026' }),
  })
  .openapi('ImportRequest', {
    description:
      'A file the service fetches from a URL in the background. It appears at once as a file in state `importing`; follow it with `GET /imports/{fileId}`. The plan\'s size ceiling applies while it streams.',
  });

export const importStatuses = ['importing', 'ready', 'failed'] as const;

export const ImportEntrySchema = z
  .object({
    fileId: z.string().openapi({ example: 'fi_8sK2mQ0vX1tB7nRw3LzP' }),
    name: z.string(),
    size: z.number().int().min(0).nullable().openapi({ description: 'The declared size; null when none was given (the origin will say).' }),
    source: z.string().openapi({ description: 'The URL it is fetched from, as given.' }),
    status: z.enum(importStatuses),
  })
  .openapi('ImportEntry');

export const ImportStatusSchema = z
  .object({
    fileId: z.string().openapi({ example: 'fi_8sK2mQ0vX1tB7nRw3LzP' }),
    name: z.string(),
    size: z
      .number()
      .int()
      .min(0)
      .nullable()
      .openapi({
        description:
          'Bytes expected: the declared size, else the origin\'s `Content-Length` once it answered. `null` while unknown (no size was declared and the origin has not said, or never did before the import failed); never a guess such as 0.',
      }),
    receivedBytes: z
      .number()
      .int()
      .min(0)
      .openapi({ description: 'Bytes committed to storage so far. Moves in steps of one storage part (32 MiB; the last part smaller); equals `size` when `ready`.' }),
    source: z.string().openapi({ description: 'The URL it is fetched from, as given.' }),
    status: z.enum(importStatuses).openapi({ description: '`importing`, then `ready` (the file is complete) or `failed` (see `error`). Currently these three.' }),
    error: z
      .string()
      .optional()
      .openapi({
        description:
          'Why it failed, fit to show a person: present when `failed`, and while `importing` after an attempt stopped (the reason of the last one; it is tried again, resuming). Absent when nothing went wrong, and when `ready`.',
      }),
  })
  .openapi('ImportStatus');

export const UploadTargetSchema = z
  .object({
    id: z.string().openapi({ description: 'File id, used to remove the file later.', example: 'fi_8sK2mQ0vX1tB7nRw3LzP' }),
    name: z.string(),
    size: z.number().int().min(0).openapi({ description: 'Bytes as registered. The upload must be exactly this long.' }),
    uploadToken: z
      .string()
      .openapi({
        description:
          'Send as header `x-service-upload-token` on every tus request for this file. Once the operator of the server disables the workspace, it (and its renewal) is refused with `403 forbidden`, `details.reason` `workspace_disabled`.',
      }),
    uploadTokenExpiresAt: z.iso.datetime().openapi({ description: 'The token works for two hours; renew it with `POST /api/uploads/token` before then.' }),
  })
  .openapi('UploadTarget');

const maxFiles = 1000;
export const filesField = z.array(FileToUploadSchema).max(maxFiles, { error: `at most ${maxFiles} files per call` }).default([]);
/** Our addition: mail to the workspace about this transfer. Defaults come from the workspace's settings. */
export const TransferNotificationsSchema = z
  .object({
    downloads: z.boolean().openapi({ description: 'Mail the workspace when someone downloads it (at most once per visit).' }),
    beforeExpiry: z.boolean().openapi({ description: 'Mail the workspace a day before it expires if nobody has downloaded it.' }),
  })
  .openapi('TransferNotifications');

const notificationsField = TransferNotificationsSchema.partial()
  .optional()
  .openapi({ description: 'Our addition: which mails the workspace gets about this transfer. Omitted switches keep their value (on create: the workspace\'s setting, on by default).' });

export const importsField = z.array(ImportRequestSchema).max(100, { error: 'at most 100 imports per call' }).default([]);

/**
 * What one download is, the same on every path: a visit to the link (one download session, started by the
 * recipient page or by `POST /links/resolve`) counts once, when it starts its first file or zip, however many
 * files it then takes and however often it resumes. Stated once here for every field and operation that says it.
 */
export const DOWNLOAD_COUNT_RULE =
  'Downloads so far. One download is one visit to the link (a download session: the recipient page, or `POST /links/resolve`), counted when it starts its first file or the zip, however many files it downloads and however often it resumes (Range requests). The owner\'s own links (`GET /transfers/{id}/download-links`) are never counted.';
export const MAX_DOWNLOADS_RULE =
  'How many downloads (visits, counted as `downloadCount` counts them) the link allows. Once reached, opening the link, starting a visit and `POST /links/resolve` answer `410 link_unavailable` (reason `limit_reached`), and so do the links of a visit that had not started downloading; a visit that already counted goes on downloading any of its files and the zip, resumptions included, until its links expire.';

/**
 * Every field of a transfer the service would hold in the clear. An end-to-end encrypted transfer
 * takes none of them, on create and on update (its title and message travel sealed in `e2eeMeta`,
 * and a recipient list or password would be the service's, not the sender's): a field added to a
 * transfer that the server stores as given belongs here.
 */
export const e2eePlaintextFields = ['title', 'message', 'recipients', 'password'] as const;
export type E2eePlaintextField = (typeof e2eePlaintextFields)[number];

/** The plaintext fields `input` actually sets: an empty list or null sets nothing. */
export function givenE2eePlaintextFields(input: Partial<Record<E2eePlaintextField, unknown>>): E2eePlaintextField[] {
  return e2eePlaintextFields.filter((field) => {
    const value = input[field];
    return Array.isArray(value) ? value.length > 0 : value !== undefined && value !== null;
  });
}

/**
 * What a batch of files for an end-to-end encrypted transfer may not carry, as field paths: imports
 * (the service would fetch, and so read, the file itself) and a file's folder `path` (it travels
 * sealed with the file's name). Checked on create and when files are added.
 */
export function e2eeRefusedInBatch(batch: { files: readonly { path?: string | null }[]; imports: readonly unknown[] }): string[] {
  return [...batch.files.flatMap((f, i) => (f.path ? [`files.${i}.path`] : [])), ...(batch.imports.length > 0 ? ['imports'] : [])];
}

/** How each recipient's mail is written (our addition; the rule in its description). */
export const RECIPIENT_LANGUAGE_RULE = `The language of each recipient's mail, by address (one of ${LOCALES.join(', ')}). A recipient left out gets their contact's \`language\`, else the sender's own (Settings), else English. Every address must be one of the transfer's \`recipients\` (\`400 invalid_request\` naming \`recipientLanguages.<address>\`).`;

const recipientLanguagesField = z
  .record(z.string(), z.enum(LOCALES, { error: `a recipient's language must be one of: ${LOCALES.join(', ')}` }))
  .refine((languages) => Object.keys(languages).length <= 50, { error: 'at most 50 recipient languages' });

export const CreateTransferRequestSchema = z
  .object({
    title: z.string().trim().max(200, { error: 'title must be at most 200 characters' }).nullable().optional(),
    message: z.string().trim().max(5000, { error: 'message must be at most 5000 characters' }).nullable().optional(),
    files: filesField,
    imports: importsField,
    e2ee: z
      .boolean()
      .default(false)
      .openapi({
        description: `End-to-end encrypted: the browser seals the files, names, title and message. Such a transfer takes none of ${e2eePlaintextFields.map((f) => `\`${f}\``).join(', ')}, here or later with \`PATCH\`, and no \`imports\` or file \`path\`, here or when files are added (\`400 invalid_request\` naming the field).`,
      }),
    recipients: z
      .array(EmailSchema)
      .max(50, { error: 'at most 50 recipients' })
      .default([])
      .openapi({ description: 'Emailed a personal link when the transfer is sent. Lower-cased and deduplicated.' }),
    recipientLanguages: recipientLanguagesField.optional().openapi({ description: RECIPIENT_LANGUAGE_RULE, example: { 'ada@example.com': 'de' } }),
    password: z.string().min(4, { error: 'password must be at least 4 characters' }).max(200).nullable().optional(),
    expiresAt: z.iso
      .datetime({ offset: true, error: 'expiresAt must be an ISO 8601 date-time' })
      .optional()
      .openapi({ description: 'Paid plan only: when the link expires, within the plan\'s range (see `GET /me`). The free plan\'s expiry is fixed.' }),
    maxDownloads: z
      .number()
      .int()
      .min(1, { error: 'maxDownloads must be at least 1' })
      .max(1_000_000)
      .nullable()
      .optional()
      .openapi({ description: `${MAX_DOWNLOADS_RULE} Absent or null: unlimited.` }),
    notifications: notificationsField,
  })
  .superRefine((v, ctx) => {
    if (v.files.length === 0 && v.imports.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['files'], message: 'files may be empty only when imports is not' });
    }
    if (v.e2ee) {
      for (const field of givenE2eePlaintextFields(v)) ctx.addIssue({ code: 'custom', path: [field], message: `an end-to-end encrypted transfer takes no ${field}` });
      for (const field of e2eeRefusedInBatch(v)) {
        ctx.addIssue({ code: 'custom', path: field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)), message: `an end-to-end encrypted transfer takes no ${field.split('.').at(-1)}` });
      }
    }
  })
  .openapi('CreateTransferRequest');

export const TransferDraftSchema = z.object({
  id: z.string().openapi({ example: 'tr_2bX9qLm4Vt0cR7sK1wNz' }),
  slug: z.string(),
  expiresAt: z.iso.datetime(),
  maxBytes: z.number().int().min(0).openapi({ description: 'The size ceiling the transfer was created under.' }),
});

export const CreateTransferResponseSchema = TransferDraftSchema.extend({
  tusEndpoint: z.url().openapi({ description: 'Where to stream the files with the tus protocol.' }),
  files: z.array(UploadTargetSchema),
  imports: z.array(ImportEntrySchema),
}).openapi('CreatedTransfer');

export const AddFilesRequestSchema = z
  .object({ files: filesField, imports: importsField })
  .refine((v) => v.files.length + v.imports.length > 0, { error: 'give at least one file or import', path: ['files'] })
  .openapi('AddFilesRequest');

export const AddFilesResponseSchema = z
  .object({ tusEndpoint: z.url(), files: z.array(UploadTargetSchema), imports: z.array(ImportEntrySchema) })
  .openapi('AddedFiles');

/** The virus scan's verdict on a stored file, shared by transfer and collection files. */
export const scanResultField = z
  .enum(['clean', 'infected'])
  .nullable()
  .openapi({
    description:
      'Null until the virus scan has run (each file is scanned as soon as it is complete, a draft\'s too; always null when the server has no scanner configured: see `scanning` on `GET /me`), then `clean` or `infected`. Downloads of a file wait for its scan when a scanner is configured: its signed URL answers `503` with `Retry-After` until then. A sent transfer with an infected file becomes `infected` and its files are deleted; in a draft, an infected file stays listed (its bytes deleted) and the draft cannot be sent until it is removed (finalize answers `409`, `files_infected`); an infected collection file is quarantined (deleted, and the owner told). Treat unknown values as not clean.',
  });

/** Why a file that will never complete failed: today a URL import's reason. */
export const fileErrorField = z.string().nullable().openapi({
  description:
    'Our addition: why the file failed when `state` is `failed` (a URL import that could not be fetched: the same reason as `error` on `GET /imports/{fileId}`); null otherwise.',
});

/** `?thumbnails=true` on an owner's read: each file also carries `thumbnailUrl`, its preview's signed URL. */
export const thumbnailsParam = z
  .enum(['true', 'false'], { error: 'thumbnails must be true or false' })
  .optional()
  .transform((v) => v === 'true')
  .openapi({
    param: { name: 'thumbnails', in: 'query' },
    type: 'string',
    enum: ['true', 'false'],
    description: 'Our addition: `true` adds each file’s `thumbnailUrl`, for showing previews.',
  });

/** A file's preview as an owner's read gives it with `thumbnails=true`; `unless` says when it is null besides having none. */
export const thumbnailUrlField = (unless = '') =>
  z
    .url()
    .nullable()
    .optional()
    .openapi({
      description: `Only with \`thumbnails=true\`: the file's preview (WebP, at most 480 px: an image's, a video's poster, a PDF's first page or an audio file's waveform) at a signed URL valid an hour, the same \`/thumb/\` link visitors get; null when it has none (yet)${unless}. Ask again for fresh URLs.`,
    });

export const TransferQuerySchema = z.object({ thumbnails: thumbnailsParam });

export const TransferFileSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    sizeBytes: z.number().int().min(0),
    mimeType: z.string(),
    path: z.string().nullable(),
    scanResult: scanResultField,
    scanSignature: z.string().nullable().openapi({
      description:
        'Our addition, shown to the owner only: the name of the malware the scanner found (ClamAV\'s signature name, e.g. `Win.Test.EICAR_HDB-1`) when `scanResult` is `infected`; null otherwise. Recipients and public pages never see it.',
    }),
    crc32: z.string().nullable().openapi({ description: 'CRC-32 (IEEE) of the bytes as 8 hex digits; null while unknown.', example: 'cbf43926' }),
    state: z.enum(['uploading', 'importing', 'complete', 'failed']).openapi({ description: 'Upload state (an addition to the spec\'s fields).' }),
    error: fileErrorField,
    createdAt: z.iso.datetime(),
    thumbnailUrl: thumbnailUrlField(
      ', for an end-to-end encrypted transfer (its previews are sealed: only a browser with the key opens them), and for a member reading a teammate’s transfer (who may not download it either)',
    ),
  })
  .openapi('TransferFile');

export const SenderSchema = z
  .object({
    kind: z.enum(['member', 'key']).openapi({ description: '`member`: a person of the workspace (through the dashboard or an app they connected); `key`: an API key.' }),
    id: z.string().openapi({ description: 'The member\'s id (`usr_…`) or the key\'s id (`key_…`).' }),
    name: z.string().nullable().openapi({ description: 'The member\'s name (null until they give one) or the key\'s name.' }),
    email: z.string().nullable().openapi({ description: 'The member\'s address; null for a key.' }),
  })
  .openapi('Sender', { description: 'Our addition: a member of the workspace or an API key: who sent a transfer, made an upload request or a contact, or revoked a transfer.' });

const transferCommon = {
  id: z.string(),
  slug: z.string().openapi({ description: 'Part of the share URL. Output only; never addresses the resource.' }),
  url: z.url().openapi({ description: 'The link for recipients. Not live until finalized.' }),
  title: z.string().nullable(),
  status: TransferStatusSchema,
  sizeBytes: z.number().int().min(0),
  recipients: z.array(z.string()),
  e2ee: z.boolean(),
  downloadCount: z.number().int().min(0).openapi({ description: DOWNLOAD_COUNT_RULE }),
  maxDownloads: z.number().int().min(0).nullable().openapi({ description: `${MAX_DOWNLOADS_RULE} Null means unlimited.` }),
  finalizedAt: z.iso
    .datetime()
    .nullable()
    .openapi({
      description:
        'Null until sent. A draft is not shareable. A transfer finalized while URL imports of it still run is sent when the last import lands: `finalizedAt` is set then (see `sendRequestedAt`), and until then its link answers `409 files_arriving`.',
    }),
  sendRequestedAt: z.iso
    .datetime()
    .nullable()
    .openapi({
      description:
        'Our addition: when the sender finalized it, null for a draft. Equal to `finalizedAt` when every file had arrived by then; ahead of it while URL imports still run (`finalizedAt` null). From here on its files and draft fields no longer change and it is never swept as an unsent draft.',
    }),
  expiresAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  sentBy: SenderSchema.nullable().openapi({
    description: 'Our addition: who sent it, a member or an API key; null for transfers made before the workspace had members (teams), or whose sender\'s account is gone.',
  }),
};

export const TransferSchema = z
  .object({
    ...transferCommon,
    fileCount: z.number().int().min(0),
    hasPassword: z.boolean(),
    message: z.string().nullable().openapi({ description: 'The message shown to recipients (an addition to the spec\'s fields).' }),
    recipientLanguages: z
      .record(z.string(), z.string())
      .openapi({ description: 'Our addition: the languages the sender chose for recipients\' mail, by address; a recipient not in it gets the default (their contact\'s language, else the sender\'s, else English).' }),
    notifications: TransferNotificationsSchema,
    files: z.array(TransferFileSchema).openapi({ description: 'The transfer\'s files, oldest first (an addition to the spec\'s fields).' }),
  })
  .openapi('Transfer');

export const TransferSummarySchema = z
  .object({ ...transferCommon, fileCount: z.number().int().min(0), firstFileName: z.string().nullable() })
  .openapi('TransferSummary');

export const transferListSorts = ['created', 'size', 'expiry'] as const;

export const TransferListQuerySchema = z.object({
  limit: limitParam(500, 100),
  cursor: cursorParam,
  status: z
    .enum(['draft', 'sent', ...transferStatuses])
    .optional()
    .openapi({ param: { name: 'status', in: 'query' }, description: 'Only transfers in this state; `draft` means not finalized, `sent` means finalized (in any state, including one still waiting for its URL imports, whose `finalizedAt` is null until the last lands).' }),
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .openapi({ param: { name: 'q', in: 'query' }, description: 'Only transfers whose title or any file name contains this text (case-insensitive, matched literally: `%` and `_` are not wildcards).' }),
  sort: z
    .enum(transferListSorts)
    .optional()
    .openapi({
      param: { name: 'sort', in: 'query' },
      description: 'Order (our addition): `created` (default, newest first), `size` (largest first) or `expiry` (soonest first). Ties go by id; a cursor only continues the order it came from.',
    }),
  sentBy: z
    .string()
    .regex(/^(me|usr_[A-Za-z0-9]{1,64}|key_[A-Za-z0-9]{1,64})$/, { error: 'Use me, a member id (usr_…) or an API key id (key_…)' })
    .optional()
    .openapi({
      param: { name: 'sentBy', in: 'query' },
      description:
        'Our addition: only the transfers this sender sent (see `sentBy` on each transfer): `me` (the calling member\'s own; for an API key, those it made), a member\'s id (`usr_…`) or an API key\'s id (`key_…`).',
    }),
});

export const TransferListSchema = z
  .object({ transfers: z.array(TransferSummarySchema), nextCursor: NextCursorSchema })
  .openapi('TransferList');

export const FinalizeTransferRequestSchema = z
  .object({
    e2eeMeta: z.string().max(65_536).optional().openapi({ description: 'Sealed metadata of an end-to-end encrypted transfer.' }),
  })
  .openapi('FinalizeTransferRequest');

export const UpdateTransferRequestSchema = z
  .object({
    title: z.string().trim().max(200, { error: 'title must be at most 200 characters' }).nullable().optional().openapi({ description: 'Drafts only.' }),
    message: z.string().trim().max(5000, { error: 'message must be at most 5000 characters' }).nullable().optional().openapi({ description: 'Drafts only.' }),
    recipients: z
      .array(EmailSchema)
      .max(50, { error: 'at most 50 recipients' })
      .optional()
      .openapi({ description: 'Drafts only. Replaces the list; lower-cased and deduplicated. A recipient kept keeps the language chosen for them.' }),
    recipientLanguages: recipientLanguagesField
      .optional()
      .openapi({ description: `Drafts only. Replaces the choices (\`{}\` clears them). ${RECIPIENT_LANGUAGE_RULE}` }),
    password: z
      .string()
      .min(4, { error: 'password must be at least 4 characters' })
      .max(200)
      .nullable()
      .optional()
      .openapi({ description: 'Drafts only. Null removes the password.' }),
    expiresAt: z.iso.datetime({ offset: true }).optional().openapi({ description: 'Paid plan only.' }),
    maxDownloads: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .nullable()
      .optional()
      .openapi({ description: `${MAX_DOWNLOADS_RULE} Null removes the limit; a limit at or below \`downloadCount\` closes the link to new visits at once.` }),
    notifications: notificationsField,
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { error: 'give at least one field to change' })
  .openapi('UpdateTransferRequest');

export const RecipientSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    notifiedAt: z.iso.datetime().nullable(),
    downloaded: z.boolean(),
    opened: z.boolean().openapi({ description: 'Retired; always false.' }),
    bouncedAt: z.iso.datetime().nullable(),
    bounceKind: z.string().nullable(),
  })
  .openapi('Recipient');

export const DownloadSchema = z
  .object({
    id: z.string(),
    fileName: z.string().nullable().openapi({ description: 'Null for the whole-transfer zip.' }),
    recipientEmail: z.string().nullable(),
    sessionId: z.string().openapi({ description: 'One page visit is one download; its files share this id.' }),
    ipTruncated: z.null().openapi({ description: 'Retired; always null.' }),
    createdAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable().openapi({ description: 'When the last byte was sent; null while in progress or if it stopped partway.' }),
  })
  .openapi('Download');

export const TransferDownloadsSchema = z
  .object({ downloads: z.array(DownloadSchema), recipients: z.array(RecipientSchema), totalDownloads: z.number().int().min(0) })
  .openapi('TransferDownloads');

export const DownloadLinksSchema = z
  .object({
    expiresAt: z.iso.datetime().openapi({ description: 'The URLs stop working after this.' }),
    files: z.array(
      z.object({
        fileId: z.string(),
        name: z.string(),
        path: z.string().nullable(),
        sizeBytes: z.number().int().min(0),
        crc32: z.string().nullable(),
        url: z.url().openapi({
          description:
            'Signed, resumable (HTTP Range) download URL. When the server scans files for viruses, it answers `503 unavailable` (`details.reason` `scan_pending`) with `Retry-After` until this file has been scanned clean; a zip waits for every file in it.',
        }),
      }),
    ),
    zip: z.object({
      name: z.string(),
      sizeBytes: z.number().int().min(0).openapi({ description: 'Exact length of the zip.' }),
      url: z.url(),
    }),
  })
  .openapi('DownloadLinks');

export type Transfer = z.infer<typeof TransferSchema>;
export type Sender = z.infer<typeof SenderSchema>;
export type TransferSummary = z.infer<typeof TransferSummarySchema>;
export type TransferFile = z.infer<typeof TransferFileSchema>;
export type UploadTarget = z.infer<typeof UploadTargetSchema>;
export type CreateTransferRequest = z.input<typeof CreateTransferRequestSchema>;
