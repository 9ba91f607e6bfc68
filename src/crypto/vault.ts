import { argon2id } from 'hash-wasm';
import { fromBase64url, toBase64url } from './base64url.js';
import { bufferSource, concatBytes, utf8 } from './bytes.js';
import { SALT_SIZE } from './container.js';
import { E2eeError } from './errors.js';
import { openBytes, openJson, sealBytes, sealJson, type SealBinding } from './sealed.js';

/**
 * The vault's key hierarchy (issue 18): a passphrase, through Argon2id, opens a random master key; the master key
 * wraps each file's random key and seals item names. The server stores the record and the wrapped keys, never a key.
 * See the module comment in index.ts for the format.
 */

export const VAULT_VERSION = 1;
export const MASTER_KEY_SIZE = 32;
export const FILE_KEY_SIZE = 32;
export const RECOVERY_KEY_SIZE = 32;
export const KDF_SALT_SIZE = 16;
const ARGON2_HASH_SIZE = 32;
const IV_SIZE = 12;
const TAG_SIZE = 16;
/** A wrapped 32-byte key: IV ‖ ciphertext ‖ tag. */
const WRAPPED_SIZE = IV_SIZE + 32 + TAG_SIZE;

/** HKDF-SHA256 info strings (empty salt), one per purpose, as in keys.ts: part of the format. */
export const vaultKeyPurposes = {
  /** From the Argon2id hash of the passphrase: AES-256-GCM, wraps the master key. */
  kek: 'parcel vault v1 kek',
  /** From the recovery key: AES-256-GCM, wraps the master key. */
  recovery: 'parcel vault v1 recovery',
  /** From the master key: AES-256-GCM, wraps each file's key. */
  fileKeys: 'parcel vault v1 file keys',
  /** From the master key: AES-256-GCM, seals item names and metadata (through sealed.ts). */
  names: 'parcel vault v1 names',
} as const;
export type VaultKeyPurpose = keyof typeof vaultKeyPurposes;

/** How the passphrase is stretched. Stored with the vault in the clear, and checked against floors before use. */
export interface KdfParams {
  algorithm: 'argon2id';
  memoryKiB: number;
  iterations: number;
  parallelism: number;
  /** 16 random bytes, base64url. */
  salt: string;
}
export type KdfCost = Pick<KdfParams, 'memoryKiB' | 'iterations' | 'parallelism'>;

/** What a new vault gets: 64 MiB, three passes, one lane (about a quarter of a second in a desktop browser). */
export const KDF_DEFAULTS: Readonly<KdfCost> = { memoryKiB: 65_536, iterations: 3, parallelism: 1 };
/** The least a record may ask for: a server that lowers the parameters to make guessing cheap is refused. */
export const KDF_FLOORS: Readonly<KdfCost> = { memoryKiB: 65_536, iterations: 3, parallelism: 1 };
/** The most a record may ask for: a server cannot make the browser allocate gigabytes or hash for minutes. */
export const KDF_CEILINGS: Readonly<KdfCost> = { memoryKiB: 1_048_576, iterations: 64, parallelism: 4 };

/** What the server stores for a vault. All binary values are base64url. */
export interface VaultRecord {
  version: 1;
  kdf: KdfParams;
  /** The master key wrapped under the passphrase's key-encryption key. */
  wrappedMasterKey: string;
  recovery: {
    /** The master key wrapped under the recovery key's key-encryption key. */
    wrappedMasterKey: string;
  };
}

/**
 * Argon2id of the passphrase bytes (UTF-8 of its NFC form) with the parameters' salt and costs: 32 bytes. Injectable
 * so the app runs it in a Worker (argon2InWorker) and tests can use a fast stand-in; called only with checked parameters.
 */
export type Argon2id = (passphrase: Uint8Array, params: KdfParams) => Promise<Uint8Array>;

/**
 * An unlocked vault: non-extractable keys derived from the master key for its two uses. The master key's bytes exist
 * only while a key is derived or rewrapped, and are then zeroed; nothing here can be written to storage or read back.
 * Locking is dropping every reference to this object.
 */
export interface MasterKey {
  /** AES-256-GCM: wraps and unwraps per-file keys. */
  readonly fileKeys: CryptoKey;
  /** AES-256-GCM: seals item names and metadata. */
  readonly names: CryptoKey;
}

export interface VaultOptions {
  /** The account the vault belongs to: bound into every wrapping of the master key. */
  accountId: string;
  /** Defaults to hash-wasm's Argon2id on this thread; the app passes argon2InWorker. */
  argon2?: Argon2id;
}

export interface NewPassphraseOptions extends VaultOptions {
  /** Costs for the new passphrase wrapping; by default KDF_DEFAULTS for a new vault, the record's own costs otherwise. */
  kdf?: Partial<KdfCost>;
}

export interface NewVault {
  record: VaultRecord;
  masterKey: MasterKey;
  /** The recovery code, to be shown once (see formatRecoveryCode); it is not kept anywhere. */
  recoveryCode: string;
}

/**
 * Argon2id by hash-wasm (WebAssembly), on whichever thread calls it: the default, for Node and tests. On a page use
 * argon2InWorker: on the page's thread the hash blocks it, and the module's 64 MiB of memory stays allocated afterwards.
 */
export const hashWasmArgon2id: Argon2id = (passphrase, params) =>
  argon2id({
    password: passphrase,
    salt: fromBase64url(params.salt),
    memorySize: params.memoryKiB,
    iterations: params.iterations,
    parallelism: params.parallelism,
    hashLength: ARGON2_HASH_SIZE,
    outputType: 'binary',
  });

/** What the page posts to argon2-worker.ts, and what it answers. */
export interface Argon2Request {
  passphrase: Uint8Array;
  params: KdfParams;
}
export type Argon2Response = { hash: Uint8Array } | { error: string };

/**
 * Argon2id in a module Worker, so the page stays responsive while it hashes. Each call has its own worker, terminated
 * when it answers: its 64 MiB (and its copy of the passphrase) go with it. Browser only.
 */
export const argon2InWorker: Argon2id = (passphrase, params) =>
  new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./argon2-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<Argon2Response>) => {
      worker.terminate();
      if ('hash' in event.data) resolve(event.data.hash);
      else reject(new Error(`Argon2id failed in its worker: ${event.data.error}`));
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(`The Argon2id worker could not run: ${event.message || 'it failed to load'}`));
    };
    const request: Argon2Request = { passphrase, params };
    worker.postMessage(request);
  });

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The record's KDF parameters, refused unless within the floors and ceilings. Called before any passphrase work, so
 * a record downgraded by the server costs the owner nothing and teaches the server nothing.
 */
export function checkKdfParams(params: unknown): KdfParams {
  if (!isRecord(params) || params.algorithm !== 'argon2id') {
    throw new E2eeError('bad_kdf', "The vault's key-derivation settings name no algorithm this app knows (only Argon2id)");
  }
  const cost = { memoryKiB: params.memoryKiB, iterations: params.iterations, parallelism: params.parallelism };
  for (const [field, value] of Object.entries(cost)) {
    if (!Number.isSafeInteger(value)) throw new E2eeError('bad_kdf', `The vault's key-derivation setting ${field} is not a whole number`);
    const n = value as number;
    const floor = KDF_FLOORS[field as keyof KdfCost];
    const ceiling = KDF_CEILINGS[field as keyof KdfCost];
    if (n < floor) {
      const why = `${field} is ${n}, below the least this app accepts (${floor}); the server's copy may have been altered, so the passphrase was not used`;
      throw new E2eeError('weak_kdf', `The vault's key-derivation settings are too weak: ${why}`);
    }
    if (n > ceiling) throw new E2eeError('bad_kdf', `The vault's key-derivation setting ${field} is ${n}, above the most this app runs (${ceiling})`);
  }
  let salt: Uint8Array | undefined;
  try {
    salt = typeof params.salt === 'string' ? fromBase64url(params.salt) : undefined;
  } catch {
    salt = undefined;
  }
  if (salt?.length !== KDF_SALT_SIZE) {
    throw new E2eeError('weak_kdf', `The vault's key-derivation salt is not ${KDF_SALT_SIZE} bytes of base64url; the passphrase was not used`);
  }
  return { algorithm: 'argon2id', ...(cost as KdfCost), salt: params.salt as string };
}

function decodeWrapped(text: unknown, what: string): Uint8Array<ArrayBuffer> {
  let bytes: Uint8Array<ArrayBuffer> | undefined;
  try {
    bytes = typeof text === 'string' ? fromBase64url(text) : undefined;
  } catch {
    bytes = undefined;
  }
  if (bytes?.length !== WRAPPED_SIZE) throw new E2eeError('malformed', `${what} is not a wrapped key (${WRAPPED_SIZE} bytes of base64url)`);
  return bytes;
}

/** The record as the server sent it, refused if it is not version 1, its wrapped keys are not 60 bytes, or its KDF parameters are out of bounds. */
export function checkVaultRecord(record: unknown): VaultRecord {
  if (!isRecord(record) || record.version !== VAULT_VERSION) {
    throw new E2eeError('malformed', 'This vault record is not of a version this app knows (1); it may need a newer version of this site');
  }
  const kdf = checkKdfParams(record.kdf);
  decodeWrapped(record.wrappedMasterKey, "The vault's passphrase-wrapped master key");
  const recovery = isRecord(record.recovery) ? record.recovery.wrappedMasterKey : undefined;
  decodeWrapped(recovery, "The vault's recovery-wrapped master key");
  return { version: VAULT_VERSION, kdf, wrappedMasterKey: record.wrappedMasterKey as string, recovery: { wrappedMasterKey: recovery as string } };
}

/**
 * The 32 bytes HKDF-SHA256 (empty salt, the purpose's info string) gives from a key. Exported for tests that compare
 * purposes and check the format, not for the app.
 */
export async function vaultPurposeKeyBytes(ikm: Uint8Array, purpose: VaultKeyPurpose): Promise<Uint8Array<ArrayBuffer>> {
  const base = await crypto.subtle.importKey('raw', bufferSource(ikm), 'HKDF', false, ['deriveBits']);
  const params: HkdfParams = { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: utf8(vaultKeyPurposes[purpose]) };
  return new Uint8Array(await crypto.subtle.deriveBits(params, base, 256));
}

async function aesKeyFor(ikm: Uint8Array, purpose: VaultKeyPurpose): Promise<CryptoKey> {
  const bytes = await vaultPurposeKeyBytes(ikm, purpose);
  try {
    return await crypto.subtle.importKey('raw', bytes, 'AES-GCM', false, ['encrypt', 'decrypt']);
  } finally {
    bytes.fill(0);
  }
}

const passphraseBytes = (passphrase: string) => utf8(passphrase.normalize('NFC'));

/**
 * The key-encryption key of a passphrase: Argon2id(UTF-8 of the NFC passphrase, salt) → 32 bytes → HKDF-SHA256
 * ('parcel vault v1 kek') → non-extractable AES-256-GCM. The parameters are checked against the floors first.
 */
export async function derivePassphraseKey(passphrase: string, params: KdfParams, argon2: Argon2id = hashWasmArgon2id): Promise<CryptoKey> {
  const checked = checkKdfParams(params);
  const bytes = passphraseBytes(passphrase);
  let hash: Uint8Array | undefined;
  try {
    hash = await argon2(bytes, checked);
    if (hash.length !== ARGON2_HASH_SIZE) throw new Error(`Argon2id gave ${hash.length} bytes, not ${ARGON2_HASH_SIZE}`);
    return await aesKeyFor(hash, 'kek');
  } finally {
    bytes.fill(0);
    hash?.fill(0);
  }
}

/** What a wrapping is for: with the account or file id, the additional data, so a wrapped key opens only in its place. */
type WrapPurpose = 'passphrase wrap' | 'recovery wrap' | 'file key';

// A JSON array keeps the fields apart whatever characters the ids hold.
const wrapAdditionalData = (purpose: WrapPurpose, id: string) => utf8(JSON.stringify(['parcel vault v1', purpose, id]));

/** AES-256-GCM with a random 12-byte IV; the text is base64url(IV ‖ ciphertext ‖ tag), 80 characters for a 32-byte key. */
async function wrapKey(kek: CryptoKey, key: Uint8Array, purpose: WrapPurpose, id: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_SIZE));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: wrapAdditionalData(purpose, id) }, kek, bufferSource(key));
  return toBase64url(concatBytes(iv, new Uint8Array(sealed)));
}

/** The key's bytes, or undefined when authentication fails (a wrong key, another id or purpose, or changed bytes). */
async function unwrapKey(kek: CryptoKey, wrapped: Uint8Array<ArrayBuffer>, purpose: WrapPurpose, id: string): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const params: AesGcmParams = { name: 'AES-GCM', iv: wrapped.subarray(0, IV_SIZE), additionalData: wrapAdditionalData(purpose, id) };
  try {
    return new Uint8Array(await crypto.subtle.decrypt(params, kek, wrapped.subarray(IV_SIZE)));
  } catch {
    return undefined;
  }
}

async function masterKeyFrom(master: Uint8Array): Promise<MasterKey> {
  const [fileKeys, names] = await Promise.all([aesKeyFor(master, 'fileKeys'), aesKeyFor(master, 'names')]);
  return { fileKeys, names };
}

function checkAccountId(accountId: string): void {
  if (typeof accountId !== 'string' || !accountId) throw new RangeError('A vault needs the id of the account it belongs to');
}

function checkNewPassphrase(passphrase: string): void {
  if (typeof passphrase !== 'string' || !passphrase.normalize('NFC')) throw new RangeError('A vault passphrase cannot be empty');
}

async function newPassphraseWrapping(master: Uint8Array, passphrase: string, cost: KdfCost, options: NewPassphraseOptions) {
  const salt = toBase64url(crypto.getRandomValues(new Uint8Array(KDF_SALT_SIZE)));
  const kdf = checkKdfParams({ algorithm: 'argon2id', ...cost, ...options.kdf, salt });
  const kek = await derivePassphraseKey(passphrase, kdf, options.argon2);
  return { kdf, wrappedMasterKey: await wrapKey(kek, master, 'passphrase wrap', options.accountId) };
}

const wrongPassphrase = () =>
  new E2eeError('wrong_passphrase', 'This passphrase does not open the vault. Check it and try again, or use your recovery code if you have forgotten it.');

/** The master key's bytes (the caller zeroes them), after the record's checks and the passphrase's Argon2id. */
interface OpenedVault {
  record: VaultRecord;
  master: Uint8Array<ArrayBuffer>;
}

async function openWithPassphrase(record: unknown, passphrase: string, options: VaultOptions): Promise<OpenedVault> {
  checkAccountId(options.accountId);
  const checked = checkVaultRecord(record);
  const kek = await derivePassphraseKey(passphrase, checked.kdf, options.argon2);
  const master = await unwrapKey(kek, fromBase64url(checked.wrappedMasterKey), 'passphrase wrap', options.accountId);
  if (master?.length !== MASTER_KEY_SIZE) throw wrongPassphrase();
  return { record: checked, master };
}

/** A new vault: a random master key wrapped under the passphrase and under a new recovery key, shown once as a code. */
export async function createVault(passphrase: string, options: NewPassphraseOptions): Promise<NewVault> {
  checkAccountId(options.accountId);
  checkNewPassphrase(passphrase);
  const master = crypto.getRandomValues(new Uint8Array(MASTER_KEY_SIZE));
  const recoveryKey = crypto.getRandomValues(new Uint8Array(RECOVERY_KEY_SIZE));
  try {
    const { kdf, wrappedMasterKey } = await newPassphraseWrapping(master, passphrase, KDF_DEFAULTS, options);
    const recoveryWrapped = await wrapKey(await aesKeyFor(recoveryKey, 'recovery'), master, 'recovery wrap', options.accountId);
    const record: VaultRecord = { version: VAULT_VERSION, kdf, wrappedMasterKey, recovery: { wrappedMasterKey: recoveryWrapped } };
    return { record, masterKey: await masterKeyFrom(master), recoveryCode: formatRecoveryCode(recoveryKey) };
  } finally {
    master.fill(0);
    recoveryKey.fill(0);
  }
}

/**
 * Opens the vault with its passphrase. Refusals, in order: 'malformed' (not a version 1 record), 'weak_kdf' or
 * 'bad_kdf' (parameters out of bounds: no hashing is done), 'wrong_passphrase'. AES-GCM cannot tell a wrong passphrase
 * from a changed wrapped key or a record bound to another account, so all three are 'wrong_passphrase'.
 */
export async function unlockVault(record: unknown, passphrase: string, options: VaultOptions): Promise<MasterKey> {
  const { master } = await openWithPassphrase(record, passphrase, options);
  try {
    return await masterKeyFrom(master);
  } finally {
    master.fill(0);
  }
}

/**
 * A new record for a new passphrase: a new salt, the same master key rewrapped, the recovery wrapping unchanged.
 * No file key changes, so no file is touched. Refuses as unlockVault does for the old passphrase.
 */
export async function changePassphrase(record: unknown, oldPassphrase: string, newPassphrase: string, options: NewPassphraseOptions): Promise<VaultRecord> {
  checkNewPassphrase(newPassphrase);
  const opened = await openWithPassphrase(record, oldPassphrase, options);
  try {
    const { kdf, wrappedMasterKey } = await newPassphraseWrapping(opened.master, newPassphrase, opened.record.kdf, options);
    return { version: VAULT_VERSION, kdf, wrappedMasterKey, recovery: { ...opened.record.recovery } };
  } finally {
    opened.master.fill(0);
  }
}

/**
 * Opens the vault with its recovery code and sets a new passphrase: a new record (the recovery wrapping unchanged) and
 * the unlocked vault. A mistyped code is 'bad_recovery_code' before any crypto; a well-formed code that does not open
 * this vault (another vault's, a changed wrapping, another account) is 'wrong_recovery_code'.
 */
export interface RecoveredVault {
  record: VaultRecord;
  masterKey: MasterKey;
}

export async function recoverVault(record: unknown, recoveryCode: string, newPassphrase: string, options: NewPassphraseOptions): Promise<RecoveredVault> {
  checkAccountId(options.accountId);
  checkNewPassphrase(newPassphrase);
  const recoveryKey = parseRecoveryCode(recoveryCode);
  const checked = checkVaultRecord(record);
  let master: Uint8Array<ArrayBuffer> | undefined;
  try {
    const kek = await aesKeyFor(recoveryKey, 'recovery');
    master = await unwrapKey(kek, fromBase64url(checked.recovery.wrappedMasterKey), 'recovery wrap', options.accountId);
    if (master?.length !== MASTER_KEY_SIZE) {
      throw new E2eeError('wrong_recovery_code', 'This recovery code does not open this vault: it may belong to another vault or account.');
    }
    const { kdf, wrappedMasterKey } = await newPassphraseWrapping(master, newPassphrase, checked.kdf, options);
    const next: VaultRecord = { version: VAULT_VERSION, kdf, wrappedMasterKey, recovery: { ...checked.recovery } };
    return { record: next, masterKey: await masterKeyFrom(master) };
  } finally {
    recoveryKey.fill(0);
    master?.fill(0);
  }
}

// Recovery codes: the 32-byte recovery key and its CRC-24, in Crockford base32, in groups of four.

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const crockfordValues = new Map([...CROCKFORD].map((c, i) => [c, i]));
const CHECKSUM_SIZE = 3;
/** 35 bytes = 280 bits = 56 characters, exactly: no spare bits. */
export const RECOVERY_CODE_LENGTH = ((RECOVERY_KEY_SIZE + CHECKSUM_SIZE) * 8) / 5;
const RECOVERY_GROUP = 4;

/** CRC-24 of OpenPGP (RFC 4880 §6.1): catches every error burst of up to 24 bits. */
function crc24(bytes: Uint8Array): number {
  let crc = 0xb704ce;
  for (const byte of bytes) {
    crc ^= byte << 16;
    for (let i = 0; i < 8; i++) {
      crc <<= 1;
      if (crc & 0x1000000) crc ^= 0x1864cfb;
    }
  }
  return crc & 0xffffff;
}

/**
 * The code shown once: base32 (Crockford's alphabet: digits and capitals without I, L, O, U) of the key followed by
 * its 3-byte CRC-24, 56 characters in 14 groups of 4 joined by '-'. A mistyped character changes at most 5 bits and
 * a swap of two neighbours at most 10 in a row, so the CRC catches every such typo before any crypto is done.
 */
export function formatRecoveryCode(recoveryKey: Uint8Array): string {
  if (recoveryKey.length !== RECOVERY_KEY_SIZE) throw new RangeError(`A recovery key is ${RECOVERY_KEY_SIZE} bytes, not ${recoveryKey.length}`);
  const crc = crc24(recoveryKey);
  const bytes = concatBytes(recoveryKey, new Uint8Array([crc >> 16, (crc >> 8) & 0xff, crc & 0xff]));
  let text = '';
  let acc = 0;
  let bits = 0;
  for (const byte of bytes) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      text += CROCKFORD[(acc >> bits) & 31]!;
    }
    acc &= (1 << bits) - 1;
  }
  bytes.fill(0);
  return Array.from({ length: text.length / RECOVERY_GROUP }, (_, i) => text.slice(i * RECOVERY_GROUP, (i + 1) * RECOVERY_GROUP)).join('-');
}

/**
 * The recovery key from a code as typed: case, spaces and hyphens do not matter, O reads as 0 and I or L as 1.
 * A code of the wrong length, with a character no code has, or whose checksum fails is 'bad_recovery_code'.
 */
export function parseRecoveryCode(code: string): Uint8Array<ArrayBuffer> {
  const text = code.replace(/[\s-]/g, '').toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');
  const stray = [...text].find((c) => !crockfordValues.has(c));
  const checkIt = 'Check it against the one you saved.';
  if (stray !== undefined) throw new E2eeError('bad_recovery_code', `This recovery code contains ${JSON.stringify(stray)}, which no recovery code has. ${checkIt}`);
  if (text.length !== RECOVERY_CODE_LENGTH) {
    throw new E2eeError('bad_recovery_code', `This recovery code has ${text.length} characters; a recovery code has ${RECOVERY_CODE_LENGTH}. ${checkIt}`);
  }
  const bytes = new Uint8Array(RECOVERY_KEY_SIZE + CHECKSUM_SIZE);
  let acc = 0;
  let bits = 0;
  let at = 0;
  for (const c of text) {
    acc = (acc << 5) | crockfordValues.get(c)!;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (acc >> bits) & 0xff;
    }
    acc &= (1 << bits) - 1;
  }
  const key = bytes.slice(0, RECOVERY_KEY_SIZE);
  const crc = (bytes[RECOVERY_KEY_SIZE]! << 16) | (bytes[RECOVERY_KEY_SIZE + 1]! << 8) | bytes[RECOVERY_KEY_SIZE + 2]!;
  bytes.fill(0);
  if (crc24(key) !== crc) {
    key.fill(0);
    throw new E2eeError('bad_recovery_code', `This recovery code has a typo: its check characters do not match. ${checkIt}`);
  }
  return key;
}

// Per-file keys and sealed names.

export const newFileKey = (): Uint8Array<ArrayBuffer> => crypto.getRandomValues(new Uint8Array(FILE_KEY_SIZE));

function checkFileKey(fileKey: Uint8Array): void {
  if (fileKey.length !== FILE_KEY_SIZE) throw new RangeError(`A file key is ${FILE_KEY_SIZE} bytes, not ${fileKey.length}`);
}

/** The file key wrapped under the master key's file-keys key, bound to the file id: what the server stores per file. */
export function wrapFileKey(master: MasterKey, fileId: string, fileKey: Uint8Array): Promise<string> {
  checkFileKey(fileKey);
  return wrapKey(master.fileKeys, fileKey, 'file key', fileId);
}

/** Refused as 'tampered' when the wrapped key was changed or belongs to another file (or another vault). */
export async function unwrapFileKey(master: MasterKey, fileId: string, wrapped: string): Promise<Uint8Array<ArrayBuffer>> {
  const fileKey = await unwrapKey(master.fileKeys, decodeWrapped(wrapped, "A file's wrapped key"), 'file key', fileId);
  if (fileKey?.length !== FILE_KEY_SIZE) {
    throw new E2eeError('tampered', "A file's wrapped key failed authentication: it was changed, or belongs to another file or vault");
  }
  return fileKey;
}

/**
 * The content key the container takes (createEncryptedSource, createDecryptStream): the file key itself as a
 * non-extractable HKDF key, from which the payload key is derived with the container's header salt.
 */
export const fileContentKey = (fileKey: Uint8Array): Promise<CryptoKey> => {
  checkFileKey(fileKey);
  return crypto.subtle.importKey('raw', bufferSource(fileKey), 'HKDF', false, ['deriveKey']);
};

export type VaultItemKind = 'file' | 'folder';

/** Which item a sealed name belongs to: it is the additional data, so a name opens only for its own item. */
export interface VaultItemRef {
  kind: VaultItemKind;
  id: string;
}

/** What the server is not told about an item: its name, and for a file its type, plaintext size and container salt. */
export interface VaultItemMeta {
  name: string;
  type?: string;
  size?: number;
  salt?: Uint8Array;
}

const nameBinding = (item: VaultItemRef): SealBinding => ({ purpose: `vault ${item.kind}`, transferId: item.id });

/** Sealed as sealed.ts seals (padded to 256 bytes) under the master key's names key. */
export function sealVaultName(master: MasterKey, item: VaultItemRef, meta: VaultItemMeta): Promise<string> {
  const value = { name: meta.name, type: meta.type, size: meta.size, salt: meta.salt && toBase64url(meta.salt) };
  return sealJson(master.names, value, nameBinding(item));
}

export async function openVaultName(master: MasterKey, item: VaultItemRef, sealed: string): Promise<VaultItemMeta> {
  const v = await openJson(master.names, sealed, nameBinding(item));
  const incomplete = () => new E2eeError('malformed', `A vault ${item.kind}'s sealed name is incomplete`);
  if (!isRecord(v) || typeof v.name !== 'string') throw incomplete();
  const meta: VaultItemMeta = { name: v.name };
  if (v.type !== undefined) {
    if (typeof v.type !== 'string') throw incomplete();
    meta.type = v.type;
  }
  if (v.size !== undefined) {
    if (typeof v.size !== 'number' || !Number.isSafeInteger(v.size) || v.size < 0) throw incomplete();
    meta.size = v.size;
  }
  if (v.salt !== undefined) {
    const salt = typeof v.salt === 'string' ? fromBase64url(v.salt) : undefined;
    if (salt?.length !== SALT_SIZE) throw incomplete();
    meta.salt = salt;
  }
  return meta;
}

const thumbnailBinding = (fileId: string): SealBinding => ({ purpose: 'vault thumbnail', transferId: fileId });

/** A file's preview image (a small JPEG the browser drew), sealed like its name but bound to it as a thumbnail. */
export function sealVaultThumbnail(master: MasterKey, fileId: string, image: Uint8Array): Promise<string> {
  return sealBytes(master.names, image, thumbnailBinding(fileId));
}

export function openVaultThumbnail(master: MasterKey, fileId: string, sealed: string): Promise<Uint8Array<ArrayBuffer>> {
  return openBytes(master.names, sealed, thumbnailBinding(fileId));
}
