import { describe, expect, it } from 'vitest';
import { fromBase64url, toBase64url } from './base64url.js';
import {
  assertKeyCheck,
  deriveLinkKeys,
  keyCheckValue,
  keyPurposes,
  linkFragment,
  newLinkKey,
  parseLinkFragment,
  purposeKeyBytes,
  verifyKeyCheck,
  type KeyPurpose,
} from './keys.js';

const purposes = Object.keys(keyPurposes) as KeyPurpose[];

describe('derived keys', () => {
  it('differ for every purpose and are the same for the same link key', async () => {
    const linkKey = newLinkKey();
    const derived = await Promise.all(purposes.map(async (p) => toBase64url(await purposeKeyBytes(linkKey, p))));
    expect(new Set(derived).size).toBe(purposes.length);
    expect(derived).not.toContain(toBase64url(linkKey));
    const again = await Promise.all(purposes.map(async (p) => toBase64url(await purposeKeyBytes(new Uint8Array(linkKey), p))));
    expect(again).toEqual(derived);
  });

  it('differ between link keys', async () => {
    const [a, b] = [newLinkKey(), newLinkKey()];
    for (const p of purposes) expect(toBase64url(await purposeKeyBytes(a, p))).not.toBe(toBase64url(await purposeKeyBytes(b, p)));
  });

  it('match HKDF-SHA256 with an empty salt and the documented info string', async () => {
    // RFC 5869 with a zero-length salt: PRK = HMAC(zeros, K), OKM = HMAC(PRK, info ‖ 0x01), computed here with HMAC alone.
    const linkKey = newLinkKey();
    const hmac = async (key: Uint8Array<ArrayBuffer>, data: Uint8Array<ArrayBuffer>) =>
      new Uint8Array(await crypto.subtle.sign('HMAC', await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']), data));
    const prk = await hmac(new Uint8Array(32), linkKey);
    const info = new TextEncoder().encode('parcel e2ee v1 meta');
    const okm = await hmac(prk, new Uint8Array([...info, 1]));
    expect(toBase64url(await purposeKeyBytes(linkKey, 'meta'))).toBe(toBase64url(okm));
  });

  it('cannot be read back out of WebCrypto', async () => {
    const keys = await deriveLinkKeys(newLinkKey());
    for (const key of Object.values(keys)) {
      expect(key.extractable).toBe(false);
      await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
    }
  });
});

describe('the link fragment', () => {
  it('is v1. and 43 base64url characters, and reads back, with or without its #', () => {
    const key = newLinkKey();
    const fragment = linkFragment(key);
    expect(fragment).toMatch(/^v1\.[A-Za-z0-9_-]{43}$/);
    expect(parseLinkFragment(fragment)).toEqual(key);
    expect(parseLinkFragment(`#${fragment}`)).toEqual(key);
  });

  it.each([
    ['missing', ''],
    ['a bare #', '#'],
    ['without a version', 'AAAA'],
    ['of another version', `v2.${'A'.repeat(43)}`],
    ['a character short', `v1.${'A'.repeat(42)}`],
    ['a character long', `v1.${'A'.repeat(44)}`],
    ['holding a character base64url has not', `v1.${'A'.repeat(42)}+`],
    ['padded', `v1.${'A'.repeat(43)}=`],
    ['ending in bits beyond the key', `v1.${'A'.repeat(42)}B`],
  ])('is refused when %s', (_name, fragment) => {
    expect(() => parseLinkFragment(fragment)).toThrow(expect.objectContaining({ name: 'E2eeError', reason: 'bad_link' }));
  });
});

describe('the key check', () => {
  it('accepts the right key and names a wrong one', async () => {
    const linkKey = newLinkKey();
    const value = await keyCheckValue(await deriveLinkKeys(linkKey));
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect(verifyKeyCheck(await deriveLinkKeys(new Uint8Array(linkKey)), value)).resolves.toBe(true);
    await expect(assertKeyCheck(await deriveLinkKeys(linkKey), value)).resolves.toBeUndefined();

    const wrong = await deriveLinkKeys(newLinkKey());
    await expect(verifyKeyCheck(wrong, value)).resolves.toBe(false);
    await expect(assertKeyCheck(wrong, value)).rejects.toMatchObject({ name: 'E2eeError', reason: 'wrong_key', message: expect.stringMatching(/is wrong/) });
  });

  it('names a link with one character of the key changed', async () => {
    const linkKey = newLinkKey();
    const value = await keyCheckValue(await deriveLinkKeys(linkKey));
    const fragment = linkFragment(linkKey);
    const changed = fragment.slice(0, 10) + (fragment[10] === 'A' ? 'B' : 'A') + fragment.slice(11);
    await expect(assertKeyCheck(await deriveLinkKeys(parseLinkFragment(changed)), value)).rejects.toMatchObject({ reason: 'wrong_key' });
  });

  it('refuses a damaged or shortened value', async () => {
    const keys = await deriveLinkKeys(newLinkKey());
    const value = await keyCheckValue(keys);
    await expect(verifyKeyCheck(keys, value.slice(0, 22))).resolves.toBe(false);
    await expect(verifyKeyCheck(keys, `${value}=`)).resolves.toBe(false);
    await expect(verifyKeyCheck(keys, '')).resolves.toBe(false);
  });
});

describe('base64url', () => {
  it('round-trips every length around a group of three', () => {
    for (let n = 0; n <= 7; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => 0xf0 + i * 3);
      const text = toBase64url(bytes);
      expect(text).not.toMatch(/[=+/]/);
      expect(fromBase64url(text)).toEqual(bytes);
    }
    expect(toBase64url(new Uint8Array([0xfb, 0xff, 0xbf]))).toBe('-_-_');
  });

  it.each(['A', 'AB=', 'A B', 'AB+/', 'AF'])('refuses %j', (text) => {
    expect(() => fromBase64url(text)).toThrow(expect.objectContaining({ reason: 'malformed' }));
  });
});
