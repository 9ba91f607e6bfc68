import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../logger.js';
import { checkMessage, mailOptions, type Mailer, type OutgoingMessage, type SendResult } from './message.js';

/**
 * Without SMTP, every message is kept as an .eml file under DATA_DIR/mail, so that a self-hoster
 * can see what would have been sent. `index.jsonl` gets one line per message, written after the
 * file, so that listing never parses .eml files and never lists a file that is not there yet.
 * Everything is owner-only: the messages carry capability links.
 */
export const mailDir = (dataDir: string) => path.join(dataDir, 'mail');
const indexFile = (dataDir: string) => path.join(mailDir(dataDir), 'index.jsonl');
/** Messages with an idempotency key, by the key's hash: each holds the index entry it was kept under. */
const keysDir = (dataDir: string) => path.join(mailDir(dataDir), 'keys');

/** `20260310T120000000Z-0123456789abcdef`: sortable by time, collision-free by its random part. */
const ID_PATTERN = /^\d{8}T\d{9}Z-[0-9a-f]{16}$/;

export interface OutboxEntry {
  id: string;
  file: string;
  to: string;
  subject: string;
  tag: string;
  workspaceId: string | null;
  createdAt: string;
}

function newMessageId(now: Date): string {
  return `${now.toISOString().replace(/[-:.]/g, '')}-${randomBytes(8).toString('hex')}`;
}

export function createFileMailer(options: { dataDir: string; from: string; log: Logger; clock: Clock }): Mailer {
  const { dataDir, log, clock } = options;
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows', disableFileAccess: true, disableUrlAccess: true });
  let announced = false;

  const entryFor = (id: string, message: OutgoingMessage, now: Date): OutboxEntry => ({
    id,
    file: `${id}.eml`,
    to: message.to,
    subject: message.subject,
    tag: message.tag,
    workspaceId: message.workspaceId,
    createdAt: now.toISOString(),
  });
  // One append per line (O_APPEND), so that web and worker processes can share the index.
  const appendEntry = (entry: OutboxEntry) => fs.appendFile(indexFile(dataDir), `${JSON.stringify(entry)}\n`, { mode: 0o600 });

  async function keep(raw: Buffer, message: OutgoingMessage, now: Date): Promise<string> {
    await fs.mkdir(mailDir(dataDir), { recursive: true, mode: 0o700 });
    if (message.idempotencyKey !== undefined) return keepOnce(raw, message, now, message.idempotencyKey);
    let id = newMessageId(now);
    for (let attempt = 0; ; attempt++) {
      try {
        // `wx`: a name that exists already is never overwritten.
        await fs.writeFile(path.join(mailDir(dataDir), `${id}.eml`), raw, { mode: 0o600, flag: 'wx' });
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw err;
        id = newMessageId(now);
      }
    }
    await appendEntry(entryFor(id, message, now));
    return id;
  }

  /**
   * A message with an idempotency key is kept once: its index entry is first recorded under the
   * key (created whole or not at all), then its file written and its line appended. A send of the
   * same key again (after a crash between sending and recording it) finishes whatever the first one
   * left undone and adds nothing else.
   */
  async function keepOnce(raw: Buffer, message: OutgoingMessage, now: Date, key: string): Promise<string> {
    const dir = keysDir(dataDir);
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const marker = path.join(dir, createHash('sha256').update(key).digest('hex'));
    let entry = entryFor(newMessageId(now), message, now);
    const temp = `${marker}.${randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(temp, JSON.stringify(entry), { mode: 0o600 });
    let first = true;
    try {
      // link() creates the name with its whole content, or fails if the key was kept before.
      await fs.link(temp, marker);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      first = false;
      entry = JSON.parse(await fs.readFile(marker, 'utf8')) as OutboxEntry;
    } finally {
      await fs.rm(temp, { force: true });
    }
    try {
      await fs.writeFile(path.join(mailDir(dataDir), entry.file), raw, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || first) throw err;
    }
    if (first || !(await readIndex(dataDir)).some((e) => e.id === entry.id)) await appendEntry(entry);
    return entry.id;
  }

  return {
    async send(message: OutgoingMessage): Promise<SendResult> {
      checkMessage(message);
      const now = clock.now();
      const info = await composer.sendMail(mailOptions(message, options.from, now));
      try {
        const id = await keep(info.message as Buffer, message, now);
        if (!announced) {
          announced = true;
          log.info({ dir: mailDir(dataDir) }, 'no SMTP_URL: outgoing mail is written to files and listed on the dashboard');
        }
        log.info({ tag: message.tag, workspaceId: message.workspaceId, id }, 'mail written to file');
        return { status: 'sent', messageId: info.messageId };
      } catch (err) {
        // A full or read-only disk is a temporary failure like an unreachable SMTP server.
        const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
        log.error({ tag: message.tag, workspaceId: message.workspaceId, code }, 'mail could not be written to file');
        return { status: 'deferred', response: `could not write the mail file (${code})` };
      }
    },
    async close() {
      composer.close();
    },
  };
}

async function readIndex(dataDir: string): Promise<OutboxEntry[]> {
  let content: string;
  try {
    content = await fs.readFile(indexFile(dataDir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const entries: OutboxEntry[] = [];
  for (const line of content.split('\n')) {
    if (!line) continue;
    try {
      const e = JSON.parse(line) as Partial<OutboxEntry>;
      // A line cut short by a crash, or anything else that is not ours, is skipped.
      if (typeof e.id === 'string' && ID_PATTERN.test(e.id) && typeof e.createdAt === 'string' && typeof e.subject === 'string') {
        entries.push(e as OutboxEntry);
      }
    } catch {
      continue;
    }
  }
  return entries;
}

/** The workspace's kept messages, newest first (by time, then by the order they were written). */
export async function listOutbox(dataDir: string, workspaceId: string, limit = 200): Promise<OutboxEntry[]> {
  const own = (await readIndex(dataDir)).filter((e) => e.workspaceId === workspaceId).reverse();
  // Array.prototype.sort is stable, so messages written within one clock tick keep write order.
  own.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  return own.slice(0, limit);
}

/**
 * One kept message as raw RFC 5322 text, or null when the id is malformed, unknown, or belongs to
 * another workspace. The id is looked up in the index; the path is built from the checked id only.
 */
export async function readOutboxMessage(dataDir: string, workspaceId: string, id: string): Promise<Buffer | null> {
  if (!ID_PATTERN.test(id)) return null;
  const entry = (await readIndex(dataDir)).find((e) => e.id === id && e.workspaceId === workspaceId);
  if (!entry) return null;
  try {
    return await fs.readFile(path.join(mailDir(dataDir), `${entry.id}.eml`));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
