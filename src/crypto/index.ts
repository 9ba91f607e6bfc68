/**
 * End-to-end encryption for transfers (issue 17): WebCrypto only, so the same code runs in browsers and Node 20.
 * The link key K never leaves the client; the server stores containers, sealed values and the key check.
 *
 * Keys. K is 32 random bytes, carried only in the link's fragment as `#v1.<base64url(K)>`. Per-purpose keys come from
 * K by HKDF-SHA256 with an empty salt and these info strings (UTF-8):
 *   'parcel e2ee v1 content'    content key (HKDF), from which each file's payload key is derived
 *   'parcel e2ee v1 meta'       AES-256-GCM: sealed file metadata and the transfer's title and message
 *   'parcel e2ee v1 thumb'      AES-256-GCM: sealed thumbnails
 *   'parcel e2ee v1 manifest'   AES-256-GCM: the sealed manifest
 *   'parcel e2ee v1 key check'  HMAC-SHA256: the key check value, HMAC(key, 'parcel e2ee v1 key check value')
 * A file's payload key = HKDF-SHA256(ikm = content key, salt = the file's 16-byte header salt, info = 'parcel e2ee v1 payload').
 * The "file key" of the issue is thus the link's content key; the random header salt makes every file's payload key its own.
 *
 * Container (one per file; what tus uploads and the server stores):
 *   bytes 0-3    magic, ASCII "PCLE" (50 43 4C 45)
 *   byte  4      version, 1
 *   byte  5      log2 of the chunk size P, 20 (P = 1 MiB); nothing else is accepted
 *   bytes 6-7    reserved, zero
 *   bytes 8-23   salt, 16 random bytes
 *   then chunk 0, 1, … n-1, n = max(1, ceil(L / P)): chunk i is plaintext bytes [iP, min((i+1)P, L)) sealed with
 *   AES-256-GCM under the payload key, nonce = i as 11 bytes big-endian ‖ 1 if i = n-1 else 0, additional data = the
 *   24 header bytes; on the wire the ciphertext then its 16-byte tag. Only the final chunk may be shorter than P,
 *   and it is empty only when L = 0.
 *   Size C(L) = 24 + L + 16 × n; chunk i starts at 24 + i × (P + 16).
 * The final flag and the index in the nonce refuse truncation at a chunk edge, reordering and duplication; the header
 * as additional data refuses a changed header; the salt in the payload key refuses a chunk from another file; the
 * recipient checks the header salt against the file's sealed metadata, which refuses a whole file swapped for another.
 *
 * Sealed values (file metadata {name, type, size, salt}, thumbnails, the manifest, the title and message):
 * base64url(IV ‖ AES-256-GCM(4-byte big-endian length ‖ bytes ‖ zeros to a multiple of 256 bytes) ‖ tag), a random
 * 12-byte IV, additional data = UTF-8 of the JSON array ['parcel e2ee v1 sealed', purpose, transferId, fileId or null]
 * with purpose one of 'file meta', 'thumbnail', 'manifest', 'transfer note'.
 *
 * Errors are E2eeError with a `reason` (see errors.ts). A recipient checks the key first (assertKeyCheck), so a wrong
 * link is 'wrong_key' and any later authentication failure is 'tampered'.
 *
 * The vault (issue 18, vault.ts): an owner's files under keys only their passphrase (or recovery code) opens.
 *   record (what the server stores, JSON, binary values base64url):
 *     { version: 1, kdf: { algorithm: 'argon2id', memoryKiB, iterations, parallelism, salt },
 *       wrappedMasterKey, recovery: { wrappedMasterKey } }
 *   KDF: Argon2id(UTF-8 of the NFC passphrase, 16-byte salt) → 32 bytes; new vaults use 65536 KiB, t = 3, p = 1.
 *     A record is refused before any hashing below 65536 KiB, t = 3, p = 1, or a salt other than 16 bytes ('weak_kdf'),
 *     and above 1 GiB, t = 64, p = 4 ('bad_kdf'), so a server can neither cheapen guessing nor hang the browser.
 *   Keys, by HKDF-SHA256 with an empty salt and these info strings:
 *     'parcel vault v1 kek'         from the Argon2id hash: AES-256-GCM, wraps the master key
 *     'parcel vault v1 recovery'    from the 32-byte recovery key: AES-256-GCM, wraps the master key
 *     'parcel vault v1 file keys'   from the 32-byte master key: AES-256-GCM, wraps each file's key
 *     'parcel vault v1 names'       from the master key: AES-256-GCM, seals item names and metadata
 *   A wrapped key is base64url(IV ‖ AES-256-GCM(key) ‖ tag), a random 12-byte IV, 60 bytes (80 characters), additional
 *   data = UTF-8 of the JSON array ['parcel vault v1', purpose, id]: ('passphrase wrap', accountId),
 *   ('recovery wrap', accountId) or ('file key', fileId).
 *   A file's key (32 random bytes) is its container's content key (fileContentKey): the container above, unchanged.
 *   Sealed names are sealed values as above under the names key, purpose 'vault file' or 'vault folder', the item's id
 *   in the transferId place: ['parcel e2ee v1 sealed', 'vault file', itemId, null].
 *   Recovery code: Crockford base32 of the recovery key ‖ its CRC-24 (RFC 4880), 56 characters in 14 groups of 4.
 * The master key's bytes live only for the moment keys are derived or rewrapped; an unlocked vault is non-extractable
 * CryptoKeys in memory (MasterKey), and locking is forgetting them.
 */
export { fromBase64url, toBase64url } from './base64url.js';
export {
  CHUNK_SIZE,
  CHUNK_SIZE_LOG2,
  FORMAT_VERSION,
  HEADER_SIZE,
  MAGIC,
  SALT_SIZE,
  SEALED_CHUNK_SIZE,
  TAG_SIZE,
  chunkCount,
  chunkNonce,
  chunkOffsets,
  ciphertextSize,
  createHeader,
  newSalt,
  openChunk,
  parseHeader,
  payloadKey,
  plaintextSize,
  sealChunk,
  type ChunkOffsets,
  type ContainerHeader,
} from './container.js';
export { createDecryptStream, createDecryptingSource, type CipherReader, type ExpectedFile } from './decrypt.js';
export { blobSource, createEncryptedSource, type ByteReader, type EncryptedSource, type PlainSource } from './encrypt.js';
export { E2eeError, type E2eeErrorReason } from './errors.js';
export {
  LINK_KEY_SIZE,
  assertKeyCheck,
  deriveLinkKeys,
  keyCheckValue,
  keyPurposes,
  linkFragment,
  newLinkKey,
  parseLinkFragment,
  verifyKeyCheck,
  type KeyPurpose,
  type LinkKeys,
} from './keys.js';
export {
  checkManifest,
  openFileMeta,
  openManifest,
  openThumbnail,
  openTransferMeta,
  openTransferNote,
  sealFileMeta,
  sealManifest,
  sealPurposes,
  sealThumbnail,
  sealTransferMeta,
  sealTransferNote,
  type FileMeta,
  type ManifestCheck,
  type ManifestEntry,
  type TransferMeta,
  type TransferNote,
} from './metadata.js';
export { SEAL_BUCKET, openBytes, openJson, sealBytes, sealJson, type SealBinding } from './sealed.js';
export {
  FILE_KEY_SIZE,
  KDF_CEILINGS,
  KDF_DEFAULTS,
  KDF_FLOORS,
  KDF_SALT_SIZE,
  MASTER_KEY_SIZE,
  RECOVERY_CODE_LENGTH,
  RECOVERY_KEY_SIZE,
  VAULT_VERSION,
  argon2InWorker,
  changePassphrase,
  checkKdfParams,
  checkVaultRecord,
  createVault,
  derivePassphraseKey,
  fileContentKey,
  formatRecoveryCode,
  hashWasmArgon2id,
  newFileKey,
  openVaultName,
  openVaultThumbnail,
  parseRecoveryCode,
  recoverVault,
  sealVaultName,
  sealVaultThumbnail,
  unlockVault,
  unwrapFileKey,
  vaultKeyPurposes,
  wrapFileKey,
  type Argon2Request,
  type Argon2Response,
  type Argon2id,
  type KdfCost,
  type KdfParams,
  type MasterKey,
  type NewPassphraseOptions,
  type NewVault,
  type RecoveredVault,
  type VaultItemKind,
  type VaultItemMeta,
  type VaultItemRef,
  type VaultKeyPurpose,
  type VaultOptions,
  type VaultRecord,
} from './vault.js';
