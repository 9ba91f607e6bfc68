/**
 * Why a container, sealed value or link was refused. The app maps each reason to one message:
 * `wrong_key` is the only one that blames the link; every other refusal means the bytes are not the ones the sender made.
 */
export type E2eeErrorReason =
  /** The 24-byte header has the wrong magic, version or chunk size, or non-zero reserved bytes. */
  | 'bad_header'
  /** The data ended before the final chunk (or the header) was complete. */
  | 'truncated'
  /** Bytes follow the final chunk. */
  | 'trailing_data'
  /** Authentication failed: altered, reordered, duplicated, or taken from another file or transfer (or, without a key check first, a wrong key). */
  | 'tampered'
  /** The key check value does not match: the link's key is wrong or damaged. */
  | 'wrong_key'
  /** A size that no container can have, or a plaintext reader that returned other than what was asked. */
  | 'bad_length'
  /** A link fragment (or link key) that is not `v1.<43 base64url characters>`. */
  | 'bad_link'
  /** Text that is not canonical base64url, or an authenticated value whose content is not the expected shape. */
  | 'malformed'
  /** Vault: the record's Argon2id parameters are below the floors (or its salt is not 16 bytes): refused before any hashing. */
  | 'weak_kdf'
  /** Vault: the record's KDF is not Argon2id, or asks for more memory, passes or lanes than the browser is made to run. */
  | 'bad_kdf'
  /** Vault: the passphrase does not open the master key (or the wrapped key was changed, or is another account's: AES-GCM cannot tell). */
  | 'wrong_passphrase'
  /** Vault: a recovery code with a typo (its checksum fails), a stray character or the wrong length: caught before any crypto. */
  | 'bad_recovery_code'
  /** Vault: a well-formed recovery code that does not open this vault's master key. */
  | 'wrong_recovery_code';

export class E2eeError extends Error {
  override readonly name = 'E2eeError';
  constructor(
    readonly reason: E2eeErrorReason,
    message: string,
  ) {
    super(message);
  }
}
