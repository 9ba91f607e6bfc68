import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { lintOpenApi } from '../../test/redocly.js';
import { v1Operations } from './route.js';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Operation {
  operationId?: string;
  tags?: string[];
  description?: string;
  deprecated?: boolean;
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Partial<Record<(typeof HTTP_METHODS)[number], Operation>>>;
  components?: { securitySchemes?: Record<string, { type: string; scheme?: string }> };
}

let server: TestServer;
let res: Response;
let rawDocument: string;
let doc: OpenApiDocument;
let operations: { method: string; path: string; op: Operation }[];

beforeAll(async () => {
  server = await startTestServer();
  res = await server.fetch('/api/v1/openapi.json');
  rawDocument = await res.text();
  doc = res.status === 200 ? JSON.parse(rawDocument) : { openapi: '', paths: {} };
  operations = Object.entries(doc.paths).flatMap(([p, item]) =>
    HTTP_METHODS.flatMap((m) => (item[m] ? [{ method: m.toUpperCase(), path: p, op: item[m]! }] : [])),
  );
});
afterAll(() => server.stop());

describe('GET /api/v1/openapi.json', () => {
  it('is served without a key as OpenAPI 3.1.0 JSON', () => {
    expect(res.status, rawDocument.slice(0, 500)).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('describes exactly the operations the server registered', () => {
    const described = operations.map((o) => `${o.method} ${o.path}`).sort();
    const registered = [...new Set(v1Operations.map((o) => `${o.method} ${o.path}`))].sort();
    expect(described.length).toBeGreaterThan(0);
    expect(described).toEqual(registered);
  });

  it('gives every operation a unique operationId, tags and a description', () => {
    const ids = operations.map((o) => o.op.operationId);
    for (const { method, path: p, op } of operations) {
      expect(op.operationId, `${method} ${p}`).toMatch(/^[A-Za-z][A-Za-z0-9]*$/);
      expect(op.tags?.length, `${method} ${p} tags`).toBeGreaterThan(0);
      expect(op.description?.trim().length, `${method} ${p} description`).toBeGreaterThan(0);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('requires bearerAuth on every operation, naming the scope unless any scope will do', () => {
    for (const { method, path: p, op } of operations) {
      const registered = v1Operations.find((o) => o.operationId === op.operationId);
      expect(registered, `${method} ${p} is registered`).toBeDefined();
      const bearer = op.security?.find((s) => 'bearerAuth' in s);
      expect(bearer, `${method} ${p} security`).toBeDefined();
      expect(bearer!.bearerAuth).toEqual(registered!.scope === 'any' ? [] : [registered!.scope]);
    }
  });

  it('answers every 4xx and 5xx with the shared Error schema', () => {
    for (const { method, path: p, op } of operations) {
      const errorStatuses = Object.keys(op.responses).filter((s) => /^[45]/.test(s));
      expect(errorStatuses, `${method} ${p}`).toEqual(expect.arrayContaining(['400', '401', '403', '404', '429', '500']));
      for (const status of errorStatuses) {
        expect(op.responses[status]!.content?.['application/json']?.schema?.$ref, `${method} ${p} ${status}`).toBe(
          '#/components/schemas/Error',
        );
      }
    }
  });

  it('documents 402 on paid-only operations (and only its own plan rule elsewhere) and 409 on every POST', () => {
    for (const { method, path: p, op } of operations) {
      const registered = v1Operations.find((o) => o.operationId === op.operationId)!;
      const paidGate = '`upgrade_required`: the workspace is not on a paid plan.';
      const documented = (op.responses['402'] as { description?: string } | undefined)?.description;
      // A free operation may still answer 402 for a plan rule of its own (such as a paid webhook event type).
      if (registered.paidOnly) expect(documented, `${method} ${p} 402`).toContain(paidGate);
      else expect(documented, `${method} ${p} 402`).not.toBe(paidGate);
      if (method === 'POST') expect(op.responses, `${method} ${p} 409`).toHaveProperty('409');
    }
  });

  it('documents in the webhooks section who acted, as our additions: revokedBy of transfer.expired, addedBy of collection.file_uploaded', () => {
    type Schema = { type?: unknown; properties: Record<string, { properties: Record<string, unknown> }> };
    const { webhooks, components } = JSON.parse(rawDocument) as { webhooks: Record<string, unknown>; components: { schemas: Record<string, Schema> } };
    expect(Object.keys(webhooks)).toEqual(expect.arrayContaining(['transfer.expired', 'collection.file_uploaded']));
    const dataOf = (type: string) => components.schemas[`Event_${type.replace('.', '_')}`]!.properties.data!.properties;
    const revokedBy = JSON.stringify(dataOf('transfer.expired').revokedBy);
    expect(revokedBy).toContain('#/components/schemas/Sender');
    expect(revokedBy).toContain('Our addition');
    const addedBy = JSON.stringify(dataOf('collection.file_uploaded').addedBy);
    expect(addedBy).toContain('#/components/schemas/FileAdder');
    expect(addedBy).toContain('Our addition');
    // The components stay as declared: not made from the first nullable field that names them.
    expect([components.schemas.Sender!.type, components.schemas.FileAdder!.type]).toEqual(['object', 'object']);
  });

  it('marks no v1 operation deprecated', () => {
    expect(operations.filter((o) => o.op.deprecated).map((o) => o.op.operationId)).toEqual([]);
  });

  it('defines the bearerAuth security scheme as HTTP bearer', () => {
    expect(doc.components?.securitySchemes?.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('passes Redocly lint with the recommended rules, without errors', async () => {
    const run = await lintOpenApi(rawDocument);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/valid/i);
  }, 60_000);
});

describe('patterns in the document', () => {
  it('compile as written, and every example of a patterned field fits its own pattern', async () => {
    const doc = (await (await server.fetch('/api/v1/openapi.json')).json()) as Record<string, unknown>;
    const found: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== 'object') return;
      const schema = node as { pattern?: unknown; example?: unknown };
      if (typeof schema.pattern === 'string') {
        found.push(where);
        // A regex flag leaking into the text ("…$/i") would make every value fail to match.
        expect(schema.pattern, where).not.toMatch(/\/[a-z]+$/);
        const pattern = new RegExp(schema.pattern);
        if (typeof schema.example === 'string') expect(pattern.test(schema.example), `${where}: ${schema.example}`).toBe(true);
      }
      for (const [key, value] of Object.entries(node)) walk(value, `${where}/${key}`);
    };
    walk(doc, '#');
    expect(found.length).toBeGreaterThan(3);
  });
});

