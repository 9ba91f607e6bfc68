import { z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/errors.js';
import type { Services } from '../services.js';
import type { AppEnv } from './env.js';
import { Surface } from './surface.js';

/** Stands in for a session check: the `x-who` header is who calls. */
const signedIn: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.header('x-who') !== 'owner') throw new ApiError('unauthorized', 'Sign in to continue');
  await next();
};

const services = { config: { PUBLIC_URL: 'https://files.example' } } as unknown as Services;

function notesSurface() {
  const surface = Surface.create(
    {
      anyone: { middleware: [], description: 'Anyone.', security: [] },
      owner: { middleware: [signedIn], description: 'The owner.', security: [{ who: [] }] },
    },
    { who: { type: 'apiKey', in: 'header', name: 'x-who' } },
  );
  surface.use(async (c, next) => {
    c.set('services', services);
    await next();
  });
  surface.app.onError((err, c) => (err instanceof ApiError ? c.json({ error: { code: err.code, details: err.details } }, err.status as 400) : c.text('boom', 500)));
  const notes = surface.group('/notes');
  notes
    .route({ method: 'get', path: '/', auth: 'anyone', summary: 'List notes', query: z.object({ limit: z.string().regex(/^\d+$/).optional() }), success: { status: 200 } }, (c, { query }) =>
      c.json({ limit: query.limit ?? null }),
    )
    .route(
      { method: 'patch', path: '/:id', auth: 'owner', summary: 'Edit a note', ids: { id: ['note', 'Note'] }, body: z.object({ text: z.string().min(1) }), success: { status: 200, schema: z.object({ id: z.string(), text: z.string() }) } },
      (c, { params, body }) => c.json({ id: params.id, text: body.text }),
    );
  surface.serveDocument({ title: 'Notes', description: 'A test surface.', mount: '/api/notes' });
  return surface;
}

const call = (surface: Surface<string>, path: string, init: RequestInit = {}) => surface.app.request(path, init);

describe('the surface route builder', () => {
  const surface = notesSurface();
  const noteId = 'note_0123456789abcdefghijkl';

  it("applies the route's auth kind before anything else, and only to that route", async () => {
    expect((await call(surface, `/notes/${noteId}`, { method: 'PATCH', body: '{"text":"x"}' })).status).toBe(401);
    expect((await call(surface, '/notes')).status).toBe(200);
  });

  it('answers 404 for an id that cannot exist, and 400 naming the field for bad input', async () => {
    const owner = { 'x-who': 'owner', 'content-type': 'application/json' };
    expect((await call(surface, '/notes/nope', { method: 'PATCH', headers: owner, body: '{"text":"x"}' })).status).toBe(404);
    const bad = await call(surface, `/notes/${noteId}`, { method: 'PATCH', headers: owner, body: '{"text":""}' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { details: { fields: { path: string }[] } } }).error.details.fields[0]!.path).toBe('text');
    expect((await call(surface, '/notes?limit=ten')).status).toBe(400);
    const ok = await call(surface, `/notes/${noteId}`, { method: 'PATCH', headers: owner, body: '{"text":"hello"}' });
    expect(await ok.json()).toEqual({ id: noteId, text: 'hello' });
  });

  it('documents every route with its auth kind, parameters, body and answer', async () => {
    const doc = (await (await call(surface, '/openapi.json')).json()) as {
      servers: { url: string }[];
      paths: Record<string, Record<string, { operationId: string; security: unknown; description: string; parameters?: { name: string; in: string }[]; requestBody?: unknown; responses: Record<string, unknown> }>>;
    };
    expect(doc.servers).toEqual([{ url: 'https://files.example/api/notes' }]);
    expect(Object.keys(doc.paths).sort()).toEqual(['/notes', '/notes/{id}']);
    const patch = doc.paths['/notes/{id}']!.patch!;
    expect(patch.description).toContain('The owner.');
    expect(patch).toMatchObject({ operationId: 'patchNotesId', security: [{ who: [] }] });
    expect(patch.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path' })]);
    expect(patch.requestBody).toBeDefined();
    expect(Object.keys(patch.responses)).toEqual(expect.arrayContaining(['200', '400', '404']));
    expect(doc.paths['/notes']!.get!.parameters).toEqual([expect.objectContaining({ name: 'limit', in: 'query' })]);
  });
});
