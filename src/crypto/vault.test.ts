import { describe, expect, it, vi } from 'vitest';
import { fromBase64url, toBase64url } from './base64url.js';
import { concatBytes, utf8 } from './bytes.js';
import { createEncryptedSource } from './encrypt.js';
import { E2eeError, type E2eeErrorReason } from './errors.js';
import { sealJson } from './sealed.js';
import { decryptAll, firstDifference, randomBytes } from './test-support.js';
import {
  KDF_DEFAULTS,
  RECOVERY_CODE_LENGTH,
  changePassphrase,
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
  vaultPurposeKeyBytes,
  wrapFileKey,
  type Argon2id,
  type KdfParams,
  type VaultKeyPurpose,
  type VaultRecord,
} from './vault.js';

/**
 * A fast stand-in for Argon2id where a test is not about Argon2id itself: SHA-256 of the parameters and the passphrase,
 * so the passphrase, salt and costs all still matter. The real hash-wasm Argon2id runs in its own tests below.
 */
const fakeArgon2: Argon2id = async (passphrase, params) =>
  new Uint8Array(await crypto.subtle.digest('SHA-256', concatBytes(utf8(JSON.stringify(params)), new Uint8Array([0]), passphrase)));

const account = 'acct_owner';
const options = { accountId: account, argon2: fakeArgon2 };
const passphrase = 'correct horse battery staple';

async function refusal(promise: Promise<unknown>): Promise<E2eeErrorReason> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof E2eeError)) throw new Error(`Expected an E2eeError, got ${String(error)}`);
  return error.reason;
}

/** A copy of the base64url text with one bit flipped in byte `at`. */
function flipByte(text: string, at: number): string {
  const bytes = fromBase64url(text);
  bytes[at]! ^= 1;
  return toBase64url(bytes);
}

const wrapAd = (purpose: string, id: string) => utf8(JSON.stringify(['parcel vault v1', purpose, id]));

async function aesDecrypt(keyBytes: Uint8Array<ArrayBuffer>, wrapped: string, additionalData: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', keyBytes, 'AES-GCM', false, ['decrypt']);
  const data = fromBase64url(wrapped);
  return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: data.subarray(0, 12), additionalData }, key, data.subarray(12)));
}

describe('a new vault', () => {
  it('has a version 1 record with the default Argon2id costs, a 16-byte salt and two 60-byte wrapped keys', async () => {
    const { record, recoveryCode } = await createVault(passphrase, options);
    expect(record).toEqual({
      version: 1,
      kdf: { algorithm: 'argon2id', memoryKiB: 65_536, iterations: 3, parallelism: 1, salt: expect.any(String) },
      wrappedMasterKey: expect.any(String),
      recovery: { wrappedMasterKey: expect.any(String) },
    });
    expect(fromBase64url(record.kdf.salt)).toHaveLength(16);
    expect(fromBase64url(record.wrappedMasterKey)).toHaveLength(60);
    expect(fromBase64url(record.recovery.wrappedMasterKey)).toHaveLength(60);
    expect(recoveryCode).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){13}$/);
    expect(JSON.stringify(record)).not.toContain(passphrase);
  });

  it('unlocks with its passphrase to the same master key', async () => {
    const { record, masterKey } = await createVault(passphrase, options);
    const fileKey = newFileKey();
    const wrapped = await wrapFileKey(masterKey, 'file_1', fileKey);
    const unlocked = await unlockVault(record, passphrase, options);
    expect(await unwrapFileKey(unlocked, 'file_1', wrapped)).toEqual(fileKey);
  });

  it('follows the documented format: HKDF info strings, wrapping and additional data', async () => {
    const { record, masterKey, recoveryCode } = await createVault(passphrase, options);
    const hash = await fakeArgon2(utf8(passphrase), record.kdf);
    const kek = await vaultPurposeKeyBytes(hash, 'kek');
    const master = await aesDecrypt(kek, record.wrappedMasterKey, wrapAd('passphrase wrap', account));
    expect(master).toHaveLength(32);
    const recoveryKek = await vaultPurposeKeyBytes(parseRecoveryCode(recoveryCode), 'recovery');
    expect(await aesDecrypt(recoveryKek, record.recovery.wrappedMasterKey, wrapAd('recovery wrap', account))).toEqual(master);

    const fileKey = newFileKey();
    const wrappedByHand = await (async () => {
      const key = await crypto.subtle.importKey('raw', await vaultPurposeKeyBytes(master, 'fileKeys'), 'AES-GCM', false, ['encrypt']);
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: wrapAd('file key', 'file_1') }, key, fileKey);
      return toBase64url(concatBytes(iv, new Uint8Array(sealed)));
    })();
    expect(await unwrapFileKey(masterKey, 'file_1', wrappedByHand)).toEqual(fileKey);

    const namesKey = await crypto.subtle.importKey('raw', await vaultPurposeKeyBytes(master, 'names'), 'AES-GCM', false, ['encrypt', 'decrypt']);
    const sealedByHand = await sealJson(namesKey, { name: 'taxes.pdf' }, { purpose: 'vault file', transferId: 'file_1' });
    expect(await openVaultName(masterKey, { kind: 'file', id: 'file_1' }, sealedByHand)).toEqual({ name: 'taxes.pdf' });
  });

  it('keeps its master key in non-extractable keys only', async () => {
    const { masterKey } = await createVault(passphrase, options);
    for (const key of [masterKey.fileKeys, masterKey.names]) {
      expect(key.extractable).toBe(false);
      await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
    }
    expect(Object.keys(masterKey).sort()).toEqual(['fileKeys', 'names']);
  });

  it('hashes the passphrase in its NFC form, so a composed and a decomposed é are the same passphrase', async () => {
    const { record } = await createVault('caf\u00e9 au lait', options);
    await expect(unlockVault(record, 'cafe\u0301 au lait', options)).resolves.toBeDefined();
  });

  it('gives every vault its own salt, master key and recovery code', async () => {
    const [a, b] = await Promise.all([createVault(passphrase, options), createVault(passphrase, options)]);
    expect(a.record.kdf.salt).not.toBe(b.record.kdf.salt);
    expect(a.recoveryCode).not.toBe(b.recoveryCode);
    const wrapped = await wrapFileKey(a.masterKey, 'file_1', newFileKey());
    expect(await refusal(unwrapFileKey(b.masterKey, 'file_1', wrapped))).toBe('tampered');
  });

  it('is not made with an empty passphrase or without an account', async () => {
    await expect(createVault('', options)).rejects.toThrow(RangeError);
    await expect(createVault(passphrase, { ...options, accountId: '' })).rejects.toThrow(RangeError);
  });
});

describe('unlocking', () => {
  it("refuses the wrong passphrase as 'wrong_passphrase'", async () => {
    const { record } = await createVault(passphrase, options);
    const error = await unlockVault(record, 'correct horse battery stapler', options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(E2eeError);
    expect(error).toMatchObject({ reason: 'wrong_passphrase', message: expect.stringMatching(/passphrase does not open the vault/) });
  });

  it("refuses a changed passphrase-wrapped master key (as 'wrong_passphrase': AES-GCM cannot tell the two apart)", async () => {
    const { record } = await createVault(passphrase, options);
    for (const at of [0, 11, 12, 43, 44, 59]) {
      const tampered: VaultRecord = { ...record, wrappedMasterKey: flipByte(record.wrappedMasterKey, at) };
      expect(await refusal(unlockVault(tampered, passphrase, options))).toBe('wrong_passphrase');
    }
  });

  it("refuses another account's record, or a record replayed under another account", async () => {
    const { record } = await createVault(passphrase, options);
    expect(await refusal(unlockVault(record, passphrase, { ...options, accountId: 'acct_other' }))).toBe('wrong_passphrase');
    const other = await createVault(passphrase, { ...options, accountId: 'acct_other' });
    expect(await refusal(unlockVault(other.record, passphrase, options))).toBe('wrong_passphrase');
  });

  it('refuses a record that is not version 1 or whose wrapped keys are not 60 bytes, before hashing', async () => {
    const { record } = await createVault(passphrase, options);
    const argon2 = vi.fn(fakeArgon2);
    const broken: unknown[] = [
      { ...record, version: 2 },
      { ...record, wrappedMasterKey: record.wrappedMasterKey.slice(0, -4) },
      { ...record, wrappedMasterKey: `${record.wrappedMasterKey}AAAA` },
      { ...record, recovery: { wrappedMasterKey: 'not base64url!' } },
      { ...record, recovery: undefined },
      null,
    ];
    for (const r of broken) expect(await refusal(unlockVault(r, passphrase, { ...options, argon2 }))).toBe('malformed');
    expect(argon2).not.toHaveBeenCalled();
  });
});

describe('KDF floors and ceilings', () => {
  const lowered: [string, (kdf: KdfParams) => unknown][] = [
    ['memory below 64 MiB', (kdf) => ({ ...kdf, memoryKiB: 65_535 })],
    ['memory of 8 KiB', (kdf) => ({ ...kdf, memoryKiB: 8 })],
    ['two passes', (kdf) => ({ ...kdf, iterations: 2 })],
    ['one pass', (kdf) => ({ ...kdf, iterations: 1 })],
    ['no lanes', (kdf) => ({ ...kdf, parallelism: 0 })],
    ['a 15-byte salt', (kdf) => ({ ...kdf, salt: toBase64url(new Uint8Array(15)) })],
    ['a 17-byte salt', (kdf) => ({ ...kdf, salt: toBase64url(new Uint8Array(17)) })],
    ['an empty salt', (kdf) => ({ ...kdf, salt: '' })],
    ['no salt', (kdf) => ({ ...kdf, salt: undefined })],
  ];

  it.each(lowered)("refuses a record with %s as 'weak_kdf' before any hashing", async (_, lower) => {
    const { record } = await createVault(passphrase, options);
    const argon2 = vi.fn(fakeArgon2);
    expect(await refusal(unlockVault({ ...record, kdf: lower(record.kdf) }, passphrase, { ...options, argon2 }))).toBe('weak_kdf');
    expect(await refusal(changePassphrase({ ...record, kdf: lower(record.kdf) }, passphrase, 'new one', { ...options, argon2 }))).toBe('weak_kdf');
    expect(argon2).not.toHaveBeenCalled();
  });

  const excessive: [string, (kdf: KdfParams) => unknown][] = [
    ['more than 1 GiB of memory', (kdf) => ({ ...kdf, memoryKiB: 1_048_577 })],
    ['65 passes', (kdf) => ({ ...kdf, iterations: 65 })],
    ['five lanes', (kdf) => ({ ...kdf, parallelism: 5 })],
    ['a fractional memory size', (kdf) => ({ ...kdf, memoryKiB: 65_536.5 })],
    ['a memory size as text', (kdf) => ({ ...kdf, memoryKiB: '65536' })],
    ['Argon2i', (kdf) => ({ ...kdf, algorithm: 'argon2i' })],
    ['no parameters', () => undefined],
  ];

  it.each(excessive)("refuses a record with %s as 'bad_kdf' before any hashing", async (_, change) => {
    const { record } = await createVault(passphrase, options);
    const argon2 = vi.fn(fakeArgon2);
    expect(await refusal(unlockVault({ ...record, kdf: change(record.kdf) }, passphrase, { ...options, argon2 }))).toBe('bad_kdf');
    expect(argon2).not.toHaveBeenCalled();
  });

  it('refuses weak parameters when deriving a passphrase key directly, or when creating a vault', async () => {
    const argon2 = vi.fn(fakeArgon2);
    const weak: KdfParams = { algorithm: 'argon2id', ...KDF_DEFAULTS, iterations: 1, salt: toBase64url(new Uint8Array(16)) };
    expect(await refusal(derivePassphraseKey(passphrase, weak, argon2))).toBe('weak_kdf');
    expect(await refusal(createVault(passphrase, { ...options, argon2, kdf: { memoryKiB: 1024 } }))).toBe('weak_kdf');
    expect(argon2).not.toHaveBeenCalled();
  });

  it('accepts stronger parameters, and a passphrase change keeps them', async () => {
    const kdf = { memoryKiB: 131_072, iterations: 4, parallelism: 4 };
    const { record } = await createVault(passphrase, { ...options, kdf });
    expect(record.kdf).toMatchObject(kdf);
    const changed = await changePassphrase(record, passphrase, 'a new passphrase', options);
    expect(changed.kdf).toMatchObject(kdf);
    await expect(unlockVault(changed, 'a new passphrase', options)).resolves.toBeDefined();
  });
});

describe("hash-wasm's Argon2id in Node", () => {
  it("matches the reference implementation's Argon2id test vector (m = 64 MiB, t = 2, p = 1)", async () => {
    // phc-winner-argon2 src/test.c: argon2id v1.3, "password", "somesalt" (an 8-byte salt, so not through the vault's checks).
    const params: KdfParams = { algorithm: 'argon2id', memoryKiB: 65_536, iterations: 2, parallelism: 1, salt: toBase64url(utf8('somesalt')) };
    const hash = await hashWasmArgon2id(utf8('password'), params);
    expect(Buffer.from(hash).toString('hex')).toBe('09316115d5cf24ed5a15a31a3ba326e5cf32edc24702987c02b6566f61913cf7');
  }, 30_000);

  it('creates and unlocks a vault at the real floors (64 MiB, t = 3, p = 1)', async () => {
    const { record, masterKey } = await createVault(passphrase, { accountId: account });
    expect(record.kdf).toMatchObject({ memoryKiB: 65_536, iterations: 3, parallelism: 1 });
    const wrapped = await wrapFileKey(masterKey, 'file_1', newFileKey());
    const unlocked = await unlockVault(record, passphrase, { accountId: account });
    await expect(unwrapFileKey(unlocked, 'file_1', wrapped)).resolves.toHaveLength(32);
  }, 60_000);
});

describe('changing the passphrase', () => {
  it('rewraps the master key only: the old passphrase fails, the new one works, file keys still unwrap', async () => {
    const { record, masterKey } = await createVault(passphrase, options);
    const fileKey = newFileKey();
    const wrapped = await wrapFileKey(masterKey, 'file_1', fileKey);

    const changed = await changePassphrase(record, passphrase, 'a brand new passphrase', options);
    expect(changed.kdf.salt).not.toBe(record.kdf.salt);
    expect(changed.wrappedMasterKey).not.toBe(record.wrappedMasterKey);
    expect(changed.recovery).toEqual(record.recovery);
    expect(await refusal(unlockVault(changed, passphrase, options))).toBe('wrong_passphrase');
    const unlocked = await unlockVault(changed, 'a brand new passphrase', options);
    expect(await unwrapFileKey(unlocked, 'file_1', wrapped)).toEqual(fileKey);
  });

  it('needs the old passphrase', async () => {
    const { record } = await createVault(passphrase, options);
    expect(await refusal(changePassphrase(record, 'not it', 'a brand new passphrase', options))).toBe('wrong_passphrase');
  });

  it('leaves the recovery code working', async () => {
    const { record, recoveryCode } = await createVault(passphrase, options);
    const changed = await changePassphrase(record, passphrase, 'a brand new passphrase', options);
    await expect(recoverVault(changed, recoveryCode, 'a third passphrase', options)).resolves.toBeDefined();
  });
});

describe('recovery', () => {
  it('opens the vault with the code and sets a new passphrase over the same master key', async () => {
    const { record, masterKey, recoveryCode } = await createVault(passphrase, options);
    const fileKey = newFileKey();
    const wrapped = await wrapFileKey(masterKey, 'file_1', fileKey);

    const recovered = await recoverVault(record, recoveryCode, 'remembered this time', options);
    expect(await unwrapFileKey(recovered.masterKey, 'file_1', wrapped)).toEqual(fileKey);
    expect(recovered.record.recovery).toEqual(record.recovery);
    expect(recovered.record.kdf.salt).not.toBe(record.kdf.salt);
    expect(await refusal(unlockVault(recovered.record, passphrase, options))).toBe('wrong_passphrase');
    const unlocked = await unlockVault(recovered.record, 'remembered this time', options);
    expect(await unwrapFileKey(unlocked, 'file_1', wrapped)).toEqual(fileKey);
  });

  it('catches a typo in the code by its checksum, before any crypto', async () => {
    const { record, recoveryCode } = await createVault(passphrase, options);
    const at = recoveryCode.indexOf('-') + 1;
    const typo = recoveryCode.slice(0, at) + (recoveryCode[at] === 'X' ? 'Y' : 'X') + recoveryCode.slice(at + 1);
    const argon2 = vi.fn(fakeArgon2);
    const digest = vi.spyOn(crypto.subtle, 'digest');
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    expect(await refusal(recoverVault(record, typo, 'new passphrase', { ...options, argon2 }))).toBe('bad_recovery_code');
    expect(argon2).not.toHaveBeenCalled();
    expect(digest).not.toHaveBeenCalled();
    expect(importKey).not.toHaveBeenCalled();
  });

  it('catches every single mistyped character and every swap of two neighbours', () => {
    const key = randomBytes(32);
    const code = formatRecoveryCode(key).replace(/-/g, '');
    const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    let tried = 0;
    const expectCaught = (text: string) => {
      tried++;
      expect(() => parseRecoveryCode(text)).toThrow(expect.objectContaining({ reason: 'bad_recovery_code' }));
    };
    for (let i = 0; i < code.length; i++) {
      for (const c of alphabet) if (c !== code[i]) expectCaught(code.slice(0, i) + c + code.slice(i + 1));
      if (i + 1 < code.length && code[i] !== code[i + 1]) expectCaught(code.slice(0, i) + code[i + 1] + code[i] + code.slice(i + 2));
    }
    expect(tried).toBeGreaterThan(56 * 31);
  });

  it('reads a code typed loosely: lower case, spaces, O for 0 and I or L for 1', () => {
    const key = randomBytes(32);
    const code = formatRecoveryCode(key);
    expect(code.replace(/-/g, '')).toHaveLength(RECOVERY_CODE_LENGTH);
    expect(parseRecoveryCode(code)).toEqual(key);
    const loose = ` ${code.toLowerCase().replace(/-/g, ' ').replace(/0/g, 'o').replace(/1/g, 'l')}\n`;
    expect(parseRecoveryCode(loose)).toEqual(key);
    expect(parseRecoveryCode(code.replace(/1/g, 'I'))).toEqual(key);
  });

  it('names a code of the wrong length or with a stray character', () => {
    const code = formatRecoveryCode(randomBytes(32));
    for (const bad of [code.slice(0, -1), `${code}A`, '', code.replace(/^./, 'U'), code.replace(/^./, '*')]) {
      expect(() => parseRecoveryCode(bad)).toThrow(expect.objectContaining({ reason: 'bad_recovery_code' }));
    }
  });

  it("refuses another vault's code, a changed recovery wrapping, or another account, as 'wrong_recovery_code'", async () => {
    const { record } = await createVault(passphrase, options);
    const other = await createVault(passphrase, options);
    expect(await refusal(recoverVault(record, other.recoveryCode, 'new passphrase', options))).toBe('wrong_recovery_code');
    const mine = await createVault(passphrase, options);
    const tampered = { ...mine.record, recovery: { wrappedMasterKey: flipByte(mine.record.recovery.wrappedMasterKey, 30) } };
    expect(await refusal(recoverVault(tampered, mine.recoveryCode, 'new passphrase', options))).toBe('wrong_recovery_code');
    expect(await refusal(recoverVault(mine.record, mine.recoveryCode, 'new passphrase', { ...options, accountId: 'acct_other' }))).toBe('wrong_recovery_code');
  });
});

describe('file keys', () => {
  it('wrap and unwrap, with a fresh IV each time', async () => {
    const { masterKey } = await createVault(passphrase, options);
    const fileKey = newFileKey();
    const [a, b] = [await wrapFileKey(masterKey, 'file_1', fileKey), await wrapFileKey(masterKey, 'file_1', fileKey)];
    expect(a).not.toBe(b);
    expect(fromBase64url(a)).toHaveLength(60);
    expect(await unwrapFileKey(masterKey, 'file_1', a)).toEqual(fileKey);
    expect(await unwrapFileKey(masterKey, 'file_1', b)).toEqual(fileKey);
  });

  it('refuse a changed wrapped key', async () => {
    const { masterKey } = await createVault(passphrase, options);
    const wrapped = await wrapFileKey(masterKey, 'file_1', newFileKey());
    for (const at of [0, 12, 30, 59]) expect(await refusal(unwrapFileKey(masterKey, 'file_1', flipByte(wrapped, at)))).toBe('tampered');
    expect(await refusal(unwrapFileKey(masterKey, 'file_1', wrapped.slice(0, -4)))).toBe('malformed');
  });

  it('refuse a wrapped key unwrapped under another file id', async () => {
    const { masterKey } = await createVault(passphrase, options);
    const wrapped = await wrapFileKey(masterKey, 'file_1', newFileKey());
    expect(await refusal(unwrapFileKey(masterKey, 'file_2', wrapped))).toBe('tampered');
  });

  it("are the container's content key: a file encrypted under one decrypts under it again after unwrapping", async () => {
    const { masterKey } = await createVault(passphrase, options);
    const fileKey = newFileKey();
    const wrapped = await wrapFileKey(masterKey, 'file_1', fileKey);
    const plain = randomBytes(100_000);
    const source = await createEncryptedSource(await fileContentKey(fileKey), { size: plain.length, read: async (s, e) => plain.slice(s, e) });
    const container = await source.read(0, source.size);

    const contentKey = await fileContentKey(await unwrapFileKey(masterKey, 'file_1', wrapped));
    expect(contentKey.extractable).toBe(false);
    const { emitted, error } = await decryptAll(contentKey, container, { salt: source.salt, size: plain.length });
    expect(error).toBeUndefined();
    expect(firstDifference(emitted, plain)).toBe(-1);

    const otherKey = await fileContentKey(newFileKey());
    expect((await decryptAll(otherKey, container, { salt: source.salt, size: plain.length })).error).toMatchObject({ reason: 'tampered' });
  });
});

describe('sealed names', () => {
  const file = { kind: 'file', id: 'item_1' } as const;

  it('round-trip a file name with its type, size and container salt, and a folder name', async () => {
    const { masterKey } = await createVault(passphrase, options);
    const meta = { name: 'Tax return 2026.pdf', type: 'application/pdf', size: 123_456, salt: randomBytes(16) };
    expect(await openVaultName(masterKey, file, await sealVaultName(masterKey, file, meta))).toEqual(meta);
    const folder = { kind: 'folder', id: 'item_2' } as const;
    expect(await openVaultName(masterKey, folder, await sealVaultName(masterKey, folder, { name: 'Receipts' }))).toEqual({ name: 'Receipts' });
  });

  it('are padded, so a short and a longer name seal to the same length', async () => {
    const { masterKey } = await createVault(passphrase, options);
    const short = await sealVaultName(masterKey, file, { name: 'a' });
    const longer = await sealVaultName(masterKey, file, { name: 'a much longer name for a file.txt' });
    expect(short.length).toBe(longer.length);
    expect(short).not.toContain('a much');
  });

  it('open only for their own item, kind and vault', async () => {
    const { masterKey } = await createVault(passphrase, options);
    const sealed = await sealVaultName(masterKey, file, { name: 'secret.txt' });
    expect(await refusal(openVaultName(masterKey, { kind: 'file', id: 'item_2' }, sealed))).toBe('tampered');
    expect(await refusal(openVaultName(masterKey, { kind: 'folder', id: 'item_1' }, sealed))).toBe('tampered');
    const other = await createVault(passphrase, options);
    expect(await refusal(openVaultName(other.masterKey, file, sealed))).toBe('tampered');
  });

  it('seal a thumbnail that opens only as that file\'s thumbnail, never as its name or another file\'s', async () => {
    const { masterKey } = await createVault(passphrase, options);
    const image = randomBytes(3000);
    const sealed = await sealVaultThumbnail(masterKey, 'item_1', image);
    expect(await openVaultThumbnail(masterKey, 'item_1', sealed)).toEqual(image);
    expect(await refusal(openVaultThumbnail(masterKey, 'item_2', sealed))).toBe('tampered');
    expect(await refusal(openVaultName(masterKey, file, sealed))).toBe('tampered');
  });

  it('are not file keys: a name key and a file-keys key are different keys', async () => {
    const { masterKey } = await createVault(passphrase, options);
    const wrapped = await wrapFileKey(masterKey, 'item_1', newFileKey());
    expect(await refusal(unwrapFileKey({ ...masterKey, fileKeys: masterKey.names }, 'item_1', wrapped))).toBe('tampered');
  });
});

describe('derived keys', () => {
  const purposes = Object.keys(vaultKeyPurposes) as VaultKeyPurpose[];

  it('differ for every purpose and are the same for the same input key', async () => {
    const ikm = randomBytes(32);
    const derived = await Promise.all(purposes.map(async (p) => toBase64url(await vaultPurposeKeyBytes(ikm, p))));
    expect(new Set(derived).size).toBe(purposes.length);
    expect(derived).not.toContain(toBase64url(ikm));
    expect(await Promise.all(purposes.map(async (p) => toBase64url(await vaultPurposeKeyBytes(new Uint8Array(ikm), p))))).toEqual(derived);
  });

  it('use info strings of their own, apart from the transfer keys', () => {
    const infos = Object.values(vaultKeyPurposes);
    expect(infos).toEqual(['parcel vault v1 kek', 'parcel vault v1 recovery', 'parcel vault v1 file keys', 'parcel vault v1 names']);
  });

  it('match HKDF-SHA256 with an empty salt and the documented info string', async () => {
    const ikm = randomBytes(32);
    const hmac = async (key: Uint8Array<ArrayBuffer>, data: Uint8Array<ArrayBuffer>) =>
      new Uint8Array(await crypto.subtle.sign('HMAC', await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']), data));
    const prk = await hmac(new Uint8Array(32), ikm);
    const okm = await hmac(prk, new Uint8Array([...utf8('parcel vault v1 file keys'), 1]));
    expect(toBase64url(await vaultPurposeKeyBytes(ikm, 'fileKeys'))).toBe(toBase64url(okm));
  });

  it('make the passphrase key non-extractable', async () => {
    const kdf: KdfParams = { algorithm: 'argon2id', ...KDF_DEFAULTS, salt: toBase64url(randomBytes(16)) };
    const kek = await derivePassphraseKey(passphrase, kdf, fakeArgon2);
    expect(kek.extractable).toBe(false);
    expect(kek.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 });
  });
});
