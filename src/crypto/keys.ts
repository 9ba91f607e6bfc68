import { fromBase64url, toBase64url } from './base64url.js';
import { bufferSource, utf8 } from './bytes.js';
import { E2eeError } from './errors.js';

export const LINK_KEY_SIZE = 32;

/**
 * HKDF-SHA256 info strings, one per purpose, so no two purposes ever share a key. The link key is uniformly random,
 * so the extract step takes an empty salt. Changing a string changes every key: these are part of the format.
 */
export const keyPurposes = {
  content: 'parcel e2ee v1 content',
  meta: 'parcel e2ee v1 meta',
  thumb: 'parcel e2ee v1 thumb',
  manifest: 'parcel e2ee v1 manifest',
  keyCheck: 'parcel e2ee v1 key check',
} as const;
export type KeyPurpose = keyof typeof keyPurposes;

/** Non-extractable keys for one transfer's link: nothing derived from it can be read back out of WebCrypto. */
export interface LinkKeys {
  /** HKDF key: each file's payload key is derived from it and the file's header salt (see payloadKey). */
  content: CryptoKey;
  /** AES-256-GCM for sealed file metadata and the transfer's title and message. */
  meta: CryptoKey;
  /** AES-256-GCM for sealed thumbnails. */
  thumb: CryptoKey;
  /** AES-256-GCM for the sealed manifest. */
  manifest: CryptoKey;
  /** HMAC-SHA256 for the key check value. */
  keyCheck: CryptoKey;
}

export const newLinkKey = (): Uint8Array<ArrayBuffer> => crypto.getRandomValues(new Uint8Array(LINK_KEY_SIZE));

function checkLinkKey(key: Uint8Array): void {
  if (key.length !== LINK_KEY_SIZE) throw new E2eeError('bad_link', `A link key is ${LINK_KEY_SIZE} bytes, not ${key.length}`);
}

/** The URL fragment that carries the key (without the `#`): `v1.<base64url(K)>`. */
export function linkFragment(key: Uint8Array): string {
  checkLinkKey(key);
  return `v1.${toBase64url(key)}`;
}

/** Reads the key back from a URL fragment, with or without its `#`. */
export function parseLinkFragment(fragment: string): Uint8Array<ArrayBuffer> {
  const text = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  const dot = text.indexOf('.');
  if (!text || dot < 0) throw new E2eeError('bad_link', "This link has no key: the part after '#' is missing or incomplete. Copy the whole link again.");
  const version = text.slice(0, dot);
  if (version !== 'v1') {
    const kind = JSON.stringify(version.slice(0, 16));
    throw new E2eeError('bad_link', `This link's key is of an unknown kind (${kind}); it may need a newer version of this site.`);
  }
  let key: Uint8Array<ArrayBuffer>;
  try {
    key = fromBase64url(text.slice(dot + 1));
  } catch {
    throw new E2eeError('bad_link', "This link's key is damaged: it contains characters a key cannot have. Copy the whole link again.");
  }
  if (key.length !== LINK_KEY_SIZE) throw new E2eeError('bad_link', "This link's key is damaged: it is too short or too long. Copy the whole link again.");
  return key;
}

/**
 * The raw 32 bytes HKDF gives for one purpose. deriveLinkKeys imports them at once as non-extractable keys;
 * exported for tests that compare purposes, not for the app.
 */
export async function purposeKeyBytes(linkKey: Uint8Array, purpose: KeyPurpose): Promise<Uint8Array<ArrayBuffer>> {
  checkLinkKey(linkKey);
  const base = await crypto.subtle.importKey('raw', bufferSource(linkKey), 'HKDF', false, ['deriveBits']);
  const params: HkdfParams = { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: utf8(keyPurposes[purpose]) };
  return new Uint8Array(await crypto.subtle.deriveBits(params, base, 256));
}

export async function deriveLinkKeys(linkKey: Uint8Array): Promise<LinkKeys> {
  const importAs = async (purpose: KeyPurpose, algorithm: AlgorithmIdentifier | HmacImportParams, usages: KeyUsage[]) =>
    crypto.subtle.importKey('raw', await purposeKeyBytes(linkKey, purpose), algorithm, false, usages);
  const sealing: KeyUsage[] = ['encrypt', 'decrypt'];
  const [content, meta, thumb, manifest, keyCheck] = await Promise.all([
    importAs('content', 'HKDF', ['deriveKey']),
    importAs('meta', 'AES-GCM', sealing),
    importAs('thumb', 'AES-GCM', sealing),
    importAs('manifest', 'AES-GCM', sealing),
    importAs('keyCheck', { name: 'HMAC', hash: 'SHA-256' }, ['sign', 'verify']),
  ]);
  return { content, meta, thumb, manifest, keyCheck };
}

const keyCheckMessage = utf8('parcel e2ee v1 key check value');

/**
 * HMAC-SHA256 of a constant under the key-check key, as base64url. It proves the link key without revealing it
 * (or any other derived key), so a wrong or damaged link is named before any file is fetched.
 */
export async function keyCheckValue(keys: LinkKeys): Promise<string> {
  return toBase64url(new Uint8Array(await crypto.subtle.sign('HMAC', keys.keyCheck, keyCheckMessage)));
}

/** Constant-time comparison through WebCrypto; text that is not base64url is simply not a match. */
export async function verifyKeyCheck(keys: LinkKeys, value: string): Promise<boolean> {
  let mac: Uint8Array<ArrayBuffer>;
  try {
    mac = fromBase64url(value);
  } catch {
    return false;
  }
  return crypto.subtle.verify('HMAC', keys.keyCheck, mac, keyCheckMessage);
}

export async function assertKeyCheck(keys: LinkKeys, value: string): Promise<void> {
  if (!(await verifyKeyCheck(keys, value))) {
    const message = "This link's key is wrong: it does not open this transfer. Check that the whole link was copied, or ask the sender again.";
    throw new E2eeError('wrong_key', message);
  }
}
