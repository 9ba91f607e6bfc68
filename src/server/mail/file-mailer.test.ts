import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { listOutbox, readOutboxMessage } from './file-mailer.js';
import { createMailer, type Mailer, type OutgoingMessage } from './mailer.js';

let dataDir: string;
let clock: ManualClock;
let mailer: Mailer;

beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parcel-mail-'));
  clock = new ManualClock(new Date('2026-03-10T12:00:00Z'));
  mailer = createMailer(loadConfig({ DATA_DIR: dataDir, MAIL_FROM: 'Parcel <no-reply@parcel.test>' }), createLogger('silent'), clock);
});
afterEach(async () => {
  await mailer.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const message = (overrides: Partial<OutgoingMessage> = {}): OutgoingMessage => ({
  to: 'alice@example.test',
  subject: 'Files for you',
  text: 'Download them here: http://127.0.0.1/t/abc#key',
  tag: 'transfer.sent',
  workspaceId: 'ws_a',
  ...overrides,
});

describe('file mailer (no SMTP_URL)', () => {
  it('writes each message as an owner-only .eml file under DATA_DIR/mail', async () => {
    const result = await mailer.send(message({ subject: 'Grüße: Files for you', html: '<p>Hello</p>' }));
    expect(result.status).toBe('sent');
    const files = (await fs.readdir(path.join(dataDir, 'mail'))).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^20260310T120000000Z-[0-9a-f]{16}\.eml$/);
    const file = path.join(dataDir, 'mail', files[0]!);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.join(dataDir, 'mail', 'index.jsonl'))).mode & 0o777).toBe(0o600);
    const raw = await fs.readFile(file, 'utf8');
    expect(raw).toMatch(/^From: Parcel <no-reply@parcel\.test>\r$/m);
    expect(raw).toMatch(/^To: alice@example\.test\r$/m);
    // A non-ASCII subject is encoded as RFC 2047 requires.
    expect(raw).toMatch(/^Subject: =\?UTF-8\?Q\?Gr=C3=BC=C3=9Fe=3A_Files_for_you\?=\r$/m);
    expect(raw).toContain('Download them here: http://127.0.0.1/t/abc#key');
    expect(raw).toContain('<p>Hello</p>');
    if (result.status === 'sent') expect(raw).toContain(`Message-ID: ${result.messageId}`);
  });

  it('writes plain subjects as they are, and never overwrites: same clock tick, distinct files', async () => {
    await Promise.all([1, 2, 3, 4, 5].map((n) => mailer.send(message({ subject: `Message ${n}` }))));
    const files = (await fs.readdir(path.join(dataDir, 'mail'))).filter((f) => f.endsWith('.eml'));
    expect(new Set(files).size).toBe(5);
    const subjects = await Promise.all(files.map(async (f) => /^Subject: (.*)\r$/m.exec(await fs.readFile(path.join(dataDir, 'mail', f), 'utf8'))?.[1]));
    expect(subjects.sort()).toEqual(['Message 1', 'Message 2', 'Message 3', 'Message 4', 'Message 5']);
  });

  it('lists a workspace’s messages newest first from the index, and reads only its own', async () => {
    await mailer.send(message({ subject: 'first' }));
    clock.advance(60_000);
    await mailer.send(message({ subject: 'other workspace', workspaceId: 'ws_b' }));
    await mailer.send(message({ subject: 'no workspace', workspaceId: null }));
    await mailer.send(message({ subject: 'second', tag: 'request.reminder' }));
    await mailer.send(message({ subject: 'third' }));
    const listed = await listOutbox(dataDir, 'ws_a');
    expect(listed.map((m) => m.subject)).toEqual(['third', 'second', 'first']);
    expect(listed[1]).toMatchObject({ to: 'alice@example.test', tag: 'request.reminder', createdAt: '2026-03-10T12:01:00.000Z' });
    expect((await listOutbox(dataDir, 'ws_a', 2)).map((m) => m.subject)).toEqual(['third', 'second']);

    const own = await readOutboxMessage(dataDir, 'ws_a', listed[0]!.id);
    expect(own?.toString('utf8')).toContain('Subject: third');
    expect(await readOutboxMessage(dataDir, 'ws_b', listed[0]!.id)).toBeNull();
    expect(await readOutboxMessage(dataDir, 'ws_a', '../index')).toBeNull();
    expect(await readOutboxMessage(dataDir, 'ws_a', `${listed[0]!.id}.eml`)).toBeNull();
  });

  it('skips a torn index line instead of failing the listing', async () => {
    await mailer.send(message({ subject: 'kept' }));
    await fs.appendFile(path.join(dataDir, 'mail', 'index.jsonl'), '{"id":"2026031');
    expect((await listOutbox(dataDir, 'ws_a')).map((m) => m.subject)).toEqual(['kept']);
  });

  it('answers deferred, not a throw, when the mail directory cannot be written', async () => {
    await fs.writeFile(path.join(dataDir, 'mail'), 'not a directory');
    const result = await mailer.send(message());
    expect(result).toEqual({ status: 'deferred', response: expect.stringMatching(/could not write the mail file/) });
  });

  it('lists nothing before any mail was written', async () => {
    expect(await listOutbox(dataDir, 'ws_a')).toEqual([]);
  });
});
