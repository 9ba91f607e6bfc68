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
  | 'malformed';

export class E2eeError extends Error {
  override readonly name = 'E2eeError';
  constructor(
    readonly reason: E2eeErrorReason,
    message: string,
  ) {
    super(message);
  }
}
