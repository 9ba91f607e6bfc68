import { z } from '@hono/zod-openapi';
import { UploadTargetSchema } from './transfers.js';

/**
 * The vault: a client-side encrypted store of the signed-in user, under /api/dashboard/vault
 * (session only; API keys and bearer tokens are answered 404 everywhere in it). The service keeps
 * only what the browser sealed: the KDF parameters and wrapped master keys (the record), each
 * item's wrapped file key, sealed metadata and thumbnail, sealed folder names, and the ciphertext.
 * Every sealed value is base64url text, as `src/crypto` writes it, so a plaintext name sent by
 * mistake (a space, a dot) is refused rather than stored. Not part of the public OpenAPI document.
 */

/** RFC 4648 §5 base64url without padding, as `src/crypto` writes every sealed value and wrapped key. */
const BASE64URL = /^[A-Za-z0-9_-]*$/;

const sealed = (field: string, max: number, min = 1) =>
  z
    .string({ error: `${field} must be a string` })
    .min(min, { error: `${field} must not be empty` })
    .max(max, { error: `${field} must be at most ${max} characters` })
    .regex(BASE64URL, { error: `${field} must be base64url text (sealed in the browser)` });

/** Floors of the key derivation: a record asking for less is refused here too (the browser refuses it on unlock). */
export const VAULT_KDF_FLOORS = { memoryKiB: 65_536, iterations: 3, parallelism: { min: 1, max: 4 } } as const;
/** Ceilings, as the browser's (src/crypto KDF_CEILINGS): a record past them could never be opened. */
export const VAULT_KDF_CEILINGS = { memoryKiB: 1_048_576, iterations: 64 } as const;

export const MAX_WRAPPED_KEY = 512;
export const MAX_SEALED_META = 8192;
export const MAX_SEALED_THUMB = 262_144;
export const MAX_SEALED_NAME = 2048;
export const MAX_VAULT_ITEMS_PER_CALL = 100;

/** 16 bytes as base64url without padding: 22 characters, the last carrying 2 data bits (its low 4 bits zero). */
const SALT = /^[A-Za-z0-9_-]{21}[AQgw]$/;

export const VaultKdfSchema = z.strictObject({
  algorithm: z.literal('argon2id', { error: 'kdf.algorithm must be argon2id' }),
  memoryKiB: z
    .number({ error: 'kdf.memoryKiB must be a number' })
    .int({ error: 'kdf.memoryKiB must be a whole number' })
    .min(VAULT_KDF_FLOORS.memoryKiB, { error: `kdf.memoryKiB must be at least ${VAULT_KDF_FLOORS.memoryKiB} (64 MiB)` })
    .max(VAULT_KDF_CEILINGS.memoryKiB, { error: `kdf.memoryKiB must be at most ${VAULT_KDF_CEILINGS.memoryKiB} (1 GiB)` }),
  iterations: z
    .number({ error: 'kdf.iterations must be a number' })
    .int({ error: 'kdf.iterations must be a whole number' })
    .min(VAULT_KDF_FLOORS.iterations, { error: `kdf.iterations must be at least ${VAULT_KDF_FLOORS.iterations}` })
    .max(VAULT_KDF_CEILINGS.iterations, { error: `kdf.iterations must be at most ${VAULT_KDF_CEILINGS.iterations}` }),
  parallelism: z
    .number({ error: 'kdf.parallelism must be a number' })
    .int({ error: 'kdf.parallelism must be a whole number' })
    .min(VAULT_KDF_FLOORS.parallelism.min, { error: 'kdf.parallelism must be 1 to 4' })
    .max(VAULT_KDF_FLOORS.parallelism.max, { error: 'kdf.parallelism must be 1 to 4' }),
  salt: z.string({ error: 'kdf.salt must be a string' }).regex(SALT, { error: 'kdf.salt must be 16 bytes as base64url (22 characters, no padding)' }),
});

/**
 * What the browser keeps on the server to open the vault: how the passphrase is stretched and the
 * master key wrapped under it and under the recovery key. Replaced whole on a passphrase change or
 * a recovery; the files never need re-encrypting. Unknown fields are refused, not stored.
 */
export const VaultRecordSchema = z.strictObject({
  version: z.literal(1, { error: 'version must be 1' }),
  kdf: VaultKdfSchema,
  wrappedMasterKey: sealed('wrappedMasterKey', MAX_WRAPPED_KEY),
  recovery: z.strictObject({ wrappedMasterKey: sealed('recovery.wrappedMasterKey', MAX_WRAPPED_KEY) }),
});
export type VaultRecord = z.infer<typeof VaultRecordSchema>;

/** `PUT /vault` (create; 409 when one exists) and `PATCH /vault` (replace the record). */
export const VaultRecordRequestSchema = z.strictObject({ record: VaultRecordSchema });

export const VaultUsageSchema = z.object({
  /** Registered ciphertext bytes of every item, unfinished uploads included (they hold their room). */
  usedBytes: z.number().int().min(0),
  /** The plan's vault quota (VAULT_FREE_BYTES or VAULT_PAID_BYTES). */
  limitBytes: z.number().int().min(0),
});

/** `GET /vault/usage`: the quota whether or not a vault exists yet (for settings). */
export const VaultUsageResponseSchema = z.object({ usage: VaultUsageSchema.extend({ exists: z.boolean() }) });
export type VaultUsageResponse = z.infer<typeof VaultUsageResponseSchema>;

export const VaultSchema = z.object({
  record: VaultRecordSchema,
  usage: VaultUsageSchema,
  createdAt: z.iso.datetime(),
  /** When the record was created or last replaced. */
  updatedAt: z.iso.datetime(),
});
export type Vault = z.infer<typeof VaultSchema>;
export const VaultResponseSchema = z.object({ vault: VaultSchema });

export const VaultFolderSchema = z.object({
  id: z.string(),
  /** Null at the top. */
  parentId: z.string().nullable(),
  /** "" until the browser has sent it (it is bound to the folder's id, known once created). */
  sealedName: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type VaultFolder = z.infer<typeof VaultFolderSchema>;

export const vaultItemStates = ['uploading', 'complete', 'failed'] as const;

export const VaultItemSchema = z.object({
  /** The engine's file id. */
  id: z.string(),
  folderId: z.string().nullable(),
  /** Ciphertext bytes, exactly as registered. */
  size: z.number().int().min(0),
  state: z.enum(vaultItemStates),
  /** "" until the browser has sent it (it is bound to the item's id, known once registered). */
  sealedMeta: z.string(),
  /** "" until the browser has sealed a thumbnail (or for files without one). */
  sealedThumb: z.string(),
  /** "" until the browser has sent it; an item left without one never finished registering and may be deleted. */
  wrappedKey: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type VaultItem = z.infer<typeof VaultItemSchema>;
export const VaultItemResponseSchema = z.object({ item: VaultItemSchema });

/** `GET /vault/items`: the whole vault at once (the browser decrypts, sorts and searches it locally). */
export const VaultContentsSchema = z.object({ folders: z.array(VaultFolderSchema), items: z.array(VaultItemSchema) });

const folderIdField = (field: string) => z.string({ error: `${field} must be a string or null` }).max(100, { error: `${field} is not a folder id` });

export const VaultItemToUploadSchema = z.strictObject({
  size: z
    .number({ error: 'size must be a number' })
    .int({ error: 'size must be a whole number of bytes' })
    .min(0, { error: 'size must not be negative' })
    .max(Number.MAX_SAFE_INTEGER),
  folderId: folderIdField('folderId').nullable().optional(),
  sealedMeta: sealed('sealedMeta', MAX_SEALED_META, 0).default(''),
  sealedThumb: sealed('sealedThumb', MAX_SEALED_THUMB, 0).default(''),
  wrappedKey: sealed('wrappedKey', MAX_WRAPPED_KEY, 0).default(''),
});

/**
 * `POST /vault/items`: registers 1 to 100 items; each is a file of the engine named `encrypted`
 * (the service never learns a name) with its exact ciphertext size. The browser binds a file's
 * wrapped key and sealed name to the item's id (src/crypto), which this call makes, so they may be
 * left out here ("") and sent with `PATCH /vault/items/{id}` once the ids are known. The JSON body
 * is held to 1 MiB like every dashboard body: large sealed thumbnails go with the PATCH too.
 */
export const RegisterVaultItemsRequestSchema = z.strictObject({
  items: z
    .array(VaultItemToUploadSchema, { error: 'items must be a list' })
    .min(1, { error: 'items must hold at least one item' })
    .max(MAX_VAULT_ITEMS_PER_CALL, { error: `at most ${MAX_VAULT_ITEMS_PER_CALL} items per call` }),
});

export const RegisteredVaultItemsSchema = z.object({
  tusEndpoint: z.string(),
  /** One upload target per item, in the order sent; the target's `id` is the item's id. */
  files: z.array(UploadTargetSchema),
  usage: VaultUsageSchema,
});

/** `wrappedKey` is written once: while it is "" (or with the same value again); another is `409 wrapped_key_set`. */
export const UpdateVaultItemRequestSchema = z.strictObject({
  wrappedKey: sealed('wrappedKey', MAX_WRAPPED_KEY).optional(),
  sealedMeta: sealed('sealedMeta', MAX_SEALED_META).optional(),
  sealedThumb: sealed('sealedThumb', MAX_SEALED_THUMB, 0).optional(),
  folderId: folderIdField('folderId').nullable().optional(),
});

export const DeleteVaultItemsRequestSchema = z.strictObject({
  ids: z
    .array(z.string({ error: 'ids must be item ids' }).max(100, { error: 'not an item id' }), { error: 'ids must be a list' })
    .min(1, { error: 'ids must hold at least one id' })
    .max(1000, { error: 'at most 1000 ids per call' }),
});
export const DeletedVaultItemsSchema = z.object({ deleted: z.number().int().min(0), usage: VaultUsageSchema });

/** A folder's sealed name is bound to its id too: it may be "" here and sent with `PATCH /vault/folders/{id}`. */
export const CreateVaultFolderRequestSchema = z.strictObject({
  sealedName: sealed('sealedName', MAX_SEALED_NAME, 0).default(''),
  parentId: folderIdField('parentId').nullable().optional(),
});

export const UpdateVaultFolderRequestSchema = z.strictObject({
  sealedName: sealed('sealedName', MAX_SEALED_NAME).optional(),
  parentId: folderIdField('parentId').nullable().optional(),
});

export const VaultFolderResponseSchema = z.object({ folder: VaultFolderSchema });

/** `DELETE /vault/folders/{id}`: only an empty folder, unless `recursive=true` (then its subfolders and items too). */
export const DeleteVaultFolderQuerySchema = z.object({
  recursive: z.enum(['true', 'false'], { error: 'recursive must be true or false' }).optional().transform((v) => v === 'true'),
});
export const DeletedVaultFolderSchema = z.object({ deletedFolders: z.number().int().min(0), deletedItems: z.number().int().min(0), usage: VaultUsageSchema });

/** `GET /vault/items/{id}/download`: a signed `/dl` link to the ciphertext, for an hour. */
export const VaultDownloadSchema = z.object({ url: z.string(), expiresAt: z.iso.datetime() });
