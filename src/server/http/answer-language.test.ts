import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestServer, type TestServer } from '../test/harness.js';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  const ws = await server.createWorkspace();
  key = await ws.createKey(['contacts:read']);
});
afterAll(() => server.stop());

/** A refusal with a value and details: a key without `contacts:write` creating a contact. */
const refused = (headers: Record<string, string> = {}) => server.fetch('/api/v1/contacts', { method: 'POST', token: key, json: { email: 'someone@example.com' }, headers });

describe('the language of an error answer', () => {
  it('writes the message in the language the request accepts, and only the message', async () => {
    const english = await refused();
    const german = await refused({ 'Accept-Language': 'de-DE,de;q=0.9,en;q=0.5' });
    expect(german.status).toBe(english.status);
    expect(german.headers.get('content-language')).toBe('de');
    expect(german.headers.get('vary')).toMatch(/accept-language/i);
    const en = await errorOf(english, 403);
    const de = await errorOf(german, 403);
    expect(en.message).toBe('This operation needs the contacts:write scope');
    // The German catalog's words for it, whatever its translator chose ("Für diesen Vorgang ist die Berechtigung {scope} nötig").
    const germanWords = (JSON.parse(fs.readFileSync(new URL('../../locales/errors/de.json', import.meta.url), 'utf8')) as Record<string, string>)['api.request.scopeNeeded']!;
    expect(germanWords).toContain('{scope}');
    expect(de.message).toBe(germanWords.replace('{scope}', 'contacts:write'));
    expect(de.message).not.toBe(en.message);
    expect(de.code).toBe(en.code);
    expect(de.details).toEqual(en.details);
    expect(de.docs).toBe(en.docs);
  });

  it('answers in English without Accept-Language, or with a language it does not write', async () => {
    const cases: Record<string, string>[] = [{}, { 'Accept-Language': 'sv-SE, fi;q=0.8' }, { 'Accept-Language': 'en-GB' }];
    for (const headers of cases) {
      const res = await refused(headers);
      expect(res.headers.get('content-language')).toBe('en');
      expect((await errorOf(res, 403)).message).toBe('This operation needs the contacts:write scope');
    }
  });
});
