import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoutePaths } from '../../../scripts/app-routes-manifest.js';
import { SessionSchema } from '../../contract/dashboard.js';
import { errorOf, signIn, startTestServer, type TestServer, type TestWorkspace } from '../test/harness.js';

/**
 * A person's own language (Settings → Language): kept on their account, in their session, and the language the server
 * writes their dashboard's pages in, on any device; a shared link's page stays its reader's.
 */

const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-own-language-'));
let server: TestServer;
let ws: TestWorkspace;
let cookie: string;
beforeAll(async () => {
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><html lang="en"><title>Parcel</title><div id="root"></div></html>');
  fs.writeFileSync(path.join(staticDir, 'routes.json'), JSON.stringify(appRoutePaths(fs.readFileSync(new URL('../../app/routeTree.gen.ts', import.meta.url), 'utf8'))));
  server = await startTestServer({}, { staticDir });
  ws = await server.createWorkspace();
  cookie = await signIn(server, ws);
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

const choose = (language: unknown, asCookie = cookie) => server.fetch('/api/dashboard/language', { method: 'PUT', json: { language }, headers: { cookie: asCookie } });
const session = async (asCookie = cookie) => SessionSchema.parse(await (await server.fetch('/api/dashboard/session', { headers: { cookie: asCookie } })).json());
const pageLanguage = async (pathname: string, headers: Record<string, string>) => /<html lang="([^"]+)" dir="([^"]+)">/.exec(await (await server.fetch(pathname, { headers })).text())?.slice(1);

describe('a person’s own language', () => {
  it('is none at first: the dashboard follows the browser, as the pages of shared links do', async () => {
    expect((await session()).user.language).toBeNull();
    expect(await pageLanguage('/transfers', { cookie, 'accept-language': 'de-DE,de;q=0.9' })).toEqual(['de', 'ltr']);
    expect(await pageLanguage('/signin', { 'accept-language': 'fr' })).toEqual(['fr', 'ltr']);
  });

  it('once chosen, is the session’s and the language of every dashboard page, whatever the browser or its cookie says', async () => {
    const res = await choose('pl');
    expect(res.status).toBe(200);
    expect(SessionSchema.parse(await res.json()).user.language).toBe('pl');
    expect((await session()).user.language).toBe('pl');
    expect(await pageLanguage('/settings', { cookie, 'accept-language': 'en-US' })).toEqual(['pl', 'ltr']);
    expect(await pageLanguage('/transfers', { cookie: `${cookie}; parcel_lang=ja`, 'accept-language': 'de' })).toEqual(['pl', 'ltr']);
    // Another device: a new session of the same person.
    const elsewhere = await signIn(server, ws);
    expect(await pageLanguage('/transfers', { cookie: elsewhere, 'accept-language': 'ar' })).toEqual(['pl', 'ltr']);
    // A shared link's page is its reader's, whoever they are.
    expect(await pageLanguage('/t/someslug', { cookie, 'accept-language': 'ar' })).toEqual(['ar', 'rtl']);
    // Signed out, the browser speaks again.
    expect(await pageLanguage('/transfers', { 'accept-language': 'it' })).toEqual(['it', 'ltr']);
  });

  it('goes back to the browser’s with null', async () => {
    expect((await choose('ar')).status).toBe(200);
    expect(await pageLanguage('/transfers', { cookie })).toEqual(['ar', 'rtl']);
    expect(SessionSchema.parse(await (await choose(null)).json()).user.language).toBeNull();
    expect(await pageLanguage('/transfers', { cookie, 'accept-language': 'nl' })).toEqual(['nl', 'ltr']);
  });

  it('refuses a language we do not write, and anyone signed out', async () => {
    const refused = await errorOf(await choose('xx'), 400);
    expect(refused.details.fields?.[0]?.path).toBe('language');
    expect((await errorOf(await choose(undefined), 400)).code).toBe('invalid_request');
    expect((await session()).user.language).toBeNull();
    expect((await server.fetch('/api/dashboard/language', { method: 'PUT', json: { language: 'de' } })).status).toBe(401);
  });
});
