import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES, textDirection, type Locale } from '../../contract/locales.js';
import { GuestListSchema } from '../../contract/collections.js';
import { TransferSchema } from '../../contract/transfers.js';
import { newId } from '../core/secrets.js';
import { files, memberships, users } from '../db/schema/index.js';
import { collectionsApi } from '../test/collections.js';
import { expectError, signIn, startTestServer, type TestServer } from '../test/harness.js';
import { markReadyIfComplete } from '../transfers/lifecycle.js';
import { recipientMail } from '../transfers/send.js';
import { remindUnseenBeforeExpiry } from '../transfers/sender-mail.js';
import { seedTransfer } from '../test/transfers.js';
import { mailIntl } from './intl.js';
import { mailWorkspace } from './workspace-mail.js';
import type { OutgoingMessage } from './message.js';
import { recordSentMail } from '../test/mail.js';

/**
 * Mail in its reader's language: a recipient's in the language the sender chose for them, else their contact's,
 * else the sender's own, else English; a guest's invitation likewise, and their sign-in link in the language of the
 * page they asked from. Each language's recipient mail in both parts, with its plural forms. The mail to the workspace's
 * own people in each one's own language (Settings), a password reset else in the language of the page that asked.
 */

let server: TestServer;
let sent: OutgoingMessage[];
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000' });
  sent = recordSentMail(server);
});
afterAll(() => server.stop());

const mailTo = (to: string, tag: string) => sent.findLast((m) => m.to === to && m.tag === tag);

/** A bearer token acting as the workspace's owner through the dashboard (a transfer sent so has the owner as its sender). */
async function ownerToken(ws: { email: string; password: string }): Promise<string> {
  const cookie = await signIn(server, ws);
  const res = await server.fetch('/api/dashboard/token', { method: 'POST', headers: { cookie } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

async function sendTransfer(token: string, body: Record<string, unknown>) {
  const created = await server.fetch('/api/v1/transfers', { method: 'POST', token, json: { files: [{ name: 'plan.pdf', size: 1200 }], ...body } });
  expect(created.status, await created.clone().text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await server.services.db.update(files).set({ state: 'complete', crc32: '00000000', completedAt: server.clock.now() }).where(eq(files.ownerId, id));
  await markReadyIfComplete(server.services, id);
  expect((await server.fetch(`/api/v1/transfers/${id}/finalize`, { method: 'POST', token, json: {} })).status).toBe(200);
  return id;
}

describe('a recipient’s mail', () => {
  it('is in the language the sender chose for them, else their contact’s, else the sender’s own, else English', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    await server.services.db.update(users).set({ locale: 'ja' }).where(eq(users.id, ws.userId));
    const key = await ws.createKey(['transfers:write', 'contacts:write']);
    const contact = await server.fetch('/api/v1/contacts', { method: 'POST', token: key, json: { email: 'fr@example.test', language: 'fr' } });
    expect(contact.status).toBe(201);
    expect(((await contact.json()) as { contact: { language: string } }).contact.language).toBe('fr');

    await sendTransfer(await ownerToken(ws), {
      title: 'Plans',
      recipients: ['de@example.test', 'fr@example.test', 'ja@example.test', 'chosen-fr@example.test'],
      // Chosen over the contact's French.
      recipientLanguages: { 'DE@example.test': 'de' },
    });
    expect(mailTo('de@example.test', 'transfer.sent')!.text).toContain('Der Link ist bis');
    expect(mailTo('fr@example.test', 'transfer.sent')!.html).toContain('<html lang="fr" dir="ltr">');
    // Nobody chose for this one, and no contact: the sender's own language.
    expect(mailTo('ja@example.test', 'transfer.sent')!.html).toContain('<html lang="ja" dir="ltr">');

    // An API key is nobody's: no language of its own, so English.
    await sendTransfer(key, { title: 'Plans', recipients: ['en@example.test'] });
    const english = mailTo('en@example.test', 'transfer.sent')!;
    expect(english.text).toContain('The link works until');
    expect(english.html).toContain('<html lang="en" dir="ltr">');
  });

  it('takes languages for its recipients only, of the languages there are, and keeps them while the draft is readdressed', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const key = await ws.createKey(['transfers:write']);
    const create = (recipientLanguages: unknown) =>
      server.fetch('/api/v1/transfers', { method: 'POST', token: key, json: { files: [{ name: 'a.txt', size: 1 }], recipients: ['a@example.test'], recipientLanguages } });
    const stray = await expectError(await create({ 'b@example.test': 'de' }), 400, 'invalid_request');
    expect(stray.details.fields).toEqual([{ path: 'recipientLanguages.b@example.test', message: 'not one of the transfer\'s recipients' }]);
    await expectError(await create({ 'a@example.test': 'klingon' }), 400, 'invalid_request');

    const created = await create({ 'a@example.test': 'pl' });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const read = async () => TransferSchema.parse(await (await server.fetch(`/api/v1/transfers/${id}`, { token: key })).json());
    expect((await read()).recipientLanguages).toEqual({ 'a@example.test': 'pl' });

    const patch = (json: unknown) => server.fetch(`/api/v1/transfers/${id}`, { method: 'PATCH', token: key, json });
    // Readdressed: a recipient kept keeps their language; one who left takes theirs with them.
    expect((await patch({ recipients: ['c@example.test', 'a@example.test'] })).status).toBe(200);
    expect(await read()).toMatchObject({ recipients: ['a@example.test', 'c@example.test'], recipientLanguages: { 'a@example.test': 'pl' } });
    // Languages alone: the same people in the same order.
    expect((await patch({ recipientLanguages: { 'c@example.test': 'ar' } })).status).toBe(200);
    expect(await read()).toMatchObject({ recipients: ['a@example.test', 'c@example.test'], recipientLanguages: { 'c@example.test': 'ar' } });
    await expectError(await patch({ recipientLanguages: { 'z@example.test': 'de' } }), 400, 'invalid_request');

    const sentId = await sendTransfer(key, { recipients: ['x@example.test'] });
    await expectError(await server.fetch(`/api/v1/transfers/${sentId}`, { method: 'PATCH', token: key, json: { recipientLanguages: {} } }), 409, 'conflict');
  });
});

describe('a contact’s language', () => {
  it('is one of the languages there are, "" by default, and synced like the other fields', async () => {
    const ws = await server.createWorkspace();
    const key = await ws.createKey(['contacts:read', 'contacts:write']);
    await expectError(await server.fetch('/api/v1/contacts', { method: 'POST', token: key, json: { email: 'x@example.test', language: 'de-DE' } }), 400, 'invalid_request');
    const plain = await server.fetch('/api/v1/contacts', { method: 'POST', token: key, json: { email: 'plain@example.test' } });
    expect(((await plain.json()) as { contact: { language: string } }).contact.language).toBe('');
    const sync = await server.fetch('/api/v1/contacts/sync', { method: 'POST', token: key, json: { contacts: [{ email: 'plain@example.test', language: 'nl' }] } });
    expect(sync.status, await sync.clone().text()).toBe(200);
    expect(await sync.json()).toMatchObject({ updated: 1, contacts: [{ email: 'plain@example.test', language: 'nl' }] });
  });
});

describe('a guest’s mail', () => {
  it('invites in the language chosen, else the contact’s, and signs in in the language of the page they asked from, which is theirs from then on', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const token = await ws.createKey(['collections:read', 'collections:write', 'contacts:write']);
    await server.fetch('/api/v1/contacts', { method: 'POST', token, json: { email: 'it@example.test', language: 'it' } });
    const c = await collectionsApi(server, token).create({ title: 'Lookbook' });
    const invite = (json: unknown) => server.fetch(`/api/v1/collections/${c.id}/guests`, { method: 'POST', token, json });
    expect((await invite({ emails: ['es@example.test'], language: 'es' })).status).toBe(200);
    expect((await invite({ emails: ['it@example.test'] })).status).toBe(200);
    await expectError(await invite({ emails: ['x@example.test'], language: 'xx' }), 400, 'invalid_request');
    expect(mailTo('es@example.test', 'collection.guest_invited')!.html).toContain('<html lang="es"');
    expect(mailTo('it@example.test', 'collection.guest_invited')!.html).toContain('<html lang="it"');

    // The Italian guest opens the page in Dutch and asks for a link there.
    const asked = await server.fetch(`/api/public/collections/${c.slug}/guest-sign-in`, {
      method: 'POST',
      json: { email: 'it@example.test' },
      headers: { 'accept-language': 'nl-BE,nl;q=0.9,en;q=0.5' },
    });
    expect(asked.status).toBe(202);
    await expect.poll(() => mailTo('it@example.test', 'collection.guest_sign_in')?.html ?? '').toContain('<html lang="nl"');
    const guests = GuestListSchema.parse(await (await server.fetch(`/api/v1/collections/${c.id}/guests`, { token })).json()).guests;
    expect(Object.fromEntries(guests.map((g) => [g.email, g.language]))).toEqual({ 'es@example.test': 'es', 'it@example.test': 'nl' });
  });
});

describe('the mail to the workspace’s own people', () => {
  /** Signs the workspace's owner in and chooses their own language, as Settings does. */
  async function chooseLanguage(ws: { email: string; password: string }, language: Locale | null) {
    const cookie = await signIn(server, ws);
    const res = await server.fetch('/api/dashboard/language', { method: 'PUT', json: { language }, headers: { cookie } });
    expect(res.status, await res.clone().text()).toBe(200);
  }

  it('is in each person’s own language: a German owner gets the reminder in German, an English admin in English, each once', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    await chooseLanguage(ws, 'de');
    const admin = `admin-${ws.id.slice(-6).toLowerCase()}@example.test`;
    const adminId = newId('usr');
    await server.services.db.insert(users).values({ id: adminId, email: admin, passwordHash: 'not a hash', createdAt: server.clock.now() });
    await server.services.db.insert(memberships).values({ workspaceId: ws.id, userId: adminId, role: 'admin', createdAt: server.clock.now() });
    // Sent with an API key (nobody's): the owner and the admins hear of it.
    await seedTransfer(server, { workspaceId: ws.id, title: 'Plans', files: [{ name: 'a.txt', data: Buffer.from('a') }], recipients: ['ada@example.test'], expiresInMs: 20 * 3_600_000 });
    expect(await remindUnseenBeforeExpiry(server.services)).toBeGreaterThanOrEqual(1);

    const reminders = sent.filter((m) => m.tag === 'transfer.expiry-reminder' && m.workspaceId === ws.id);
    expect(reminders.map((m) => m.to).sort()).toEqual([admin, ws.email].sort());
    const german = reminders.find((m) => m.to === ws.email)!;
    const english = reminders.find((m) => m.to === admin)!;
    expect(german.html).toContain('<html lang="de" dir="ltr">');
    expect(english.html).toContain('<html lang="en" dir="ltr">');
    expect(english.subject).toBe('Expires tomorrow, not downloaded yet: Plans');
    expect(english.text).toContain('“Plans” expires tomorrow, and nobody has downloaded it');
    expect(english.text).toContain('It was sent to ada@example.test. You may want to remind them.');

    // Written once per language among the addressees: a second English person adds a mail, not a writing.
    const member = `member-${ws.id.slice(-6).toLowerCase()}@example.test`;
    const memberId = newId('usr');
    await server.services.db.insert(users).values({ id: memberId, email: member, passwordHash: 'not a hash', createdAt: server.clock.now() });
    await server.services.db.insert(memberships).values({ workspaceId: ws.id, userId: memberId, role: 'member', createdAt: server.clock.now() });
    const written: string[] = [];
    const settled = await mailWorkspace(server.services, ws.id, (intl, locale) => {
      written.push(locale);
      return { subject: `In ${intl.locale}`, text: 'Hello', tag: 'test.languages' };
    });
    expect(settled).toBe(true);
    expect(written.sort()).toEqual(['de', 'en']);
    const news = sent.filter((m) => m.tag === 'test.languages' && m.workspaceId === ws.id);
    expect(Object.fromEntries(news.map((m) => [m.to, m.subject]))).toEqual({ [ws.email]: 'In de', [admin]: 'In en-GB', [member]: 'In en-GB' });
  });

  it('resets a password in the person’s own language, else in the language of the page that asked', async () => {
    const reset = (email: string, language: string) =>
      server.fetch('/api/dashboard/password-reset', { method: 'POST', json: { email }, headers: { 'accept-language': language } });
    const german = await server.createWorkspace();
    await chooseLanguage(german, 'de');
    expect((await reset(german.email, 'fr-FR,fr;q=0.9')).status).toBe(202);
    expect(mailTo(german.email, 'account.password-reset')!.html).toContain('<html lang="de" dir="ltr">');

    const none = await server.createWorkspace();
    expect((await reset(none.email, 'fr-FR,fr;q=0.9')).status).toBe(202);
    expect(mailTo(none.email, 'account.password-reset')!.html).toContain('<html lang="fr" dir="ltr">');
    expect((await reset(none.email, 'en-US')).status).toBe(202);
    const english = mailTo(none.email, 'account.password-reset')!;
    expect(english.html).toContain('<html lang="en" dir="ltr">');
    expect(english.subject).toBe('Reset your Parcel password');
  });

  it('invites a new member in the inviter’s own language', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    await chooseLanguage(ws, 'ja');
    const cookie = await signIn(server, ws);
    const email = `invitee-${ws.id.slice(-6).toLowerCase()}@example.test`;
    const res = await server.fetch('/api/dashboard/members/invitations', { method: 'POST', json: { email, role: 'member' }, headers: { cookie } });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(mailTo(email, 'workspace.invitation')!.html).toContain('<html lang="ja" dir="ltr">');
  });
});

describe('the recipient mail in every language', () => {
  const at = new Date('2026-12-06T15:30:00Z');
  const transfer = { title: null, message: null, expiresAt: at, passwordHash: null };
  const filesOf = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `f${i}.bin`, path: null, sizeBytes: 2_500_000 }));
  const english = recipientMail('en', transfer, 'Acme', filesOf(2), 'https://parcel.example/t/x');

  it.each(LOCALES.filter((l) => l !== 'en'))('%s: both parts in it, with its plural forms for 1, 2, 5 and 22 files', (locale: Locale) => {
    const intl = mailIntl(locale);
    for (const n of [1, 2, 5, 22]) {
      const mail = recipientMail(locale, transfer, 'Acme', filesOf(n), 'https://parcel.example/t/x');
      const summary = intl.formatMessage({ id: 'mail.transferSent.summary', defaultMessage: '' }, { count: n, size: 'S' });
      // The plural branch of this count in this language (a catalog's forms are checked against CLDR by catalogs.test.ts).
      expect(summary, `${locale} ${n}`).not.toBe('');
      expect(mail.html).toContain(`<html lang="${locale}" dir="${textDirection(locale)}">`);
      expect(mail.subject).toContain('Acme');
      expect(mail.subject).not.toBe(english.subject);
      for (const part of [mail.text, mail.html]) {
        expect(part).not.toContain('The link works until');
        expect(part).not.toContain('Get your files');
        expect(part).not.toContain('in all');
        // The date is written in the language too (no English month or weekday).
        expect(part).not.toMatch(/December|Sunday/);
      }
    }
  });

  it('writes each count with its own plural form: Polish and Arabic, whose forms differ most from English', () => {
    const summaryOf = (locale: Locale, n: number) => recipientMail(locale, transfer, 'Acme', filesOf(n), 'https://x.example/t/x').text;
    expect(summaryOf('pl', 1)).toMatch(/\b1 plik\b/);
    expect(summaryOf('pl', 2)).toMatch(/\b2 pliki\b/);
    expect(summaryOf('pl', 5)).toMatch(/\b5 plików\b/);
    expect(summaryOf('pl', 22)).toMatch(/\b22 pliki\b/);
    expect(summaryOf('de', 1)).toMatch(/\b1 Datei\b/);
    expect(summaryOf('de', 22)).toMatch(/\b22 Dateien\b/);
    // Arabic: one and two are words of their own, 5 takes the plural (few), 22 the singular accusative (many).
    const arabic = [1, 2, 5, 22].map((n) => summaryOf('ar', n));
    expect(new Set(arabic.map((text) => text.split('\n').find((line) => /ملف/.test(line))))).toHaveProperty('size', 4);
  });
});
