import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema, errorStatus, type ErrorCode } from '../../../../contract/errors.js';
import type { TestServer } from '../../../test/harness.js';
import { v1App } from '../index.js';
import { openApiDocumentConfig } from '../openapi.js';
import { casesFor, inGroup, operationsOf, type FuzzCase, type OperationGroup } from './cases.js';
import { FuzzWorkspace, PUBLIC_URL, startFuzzServer, usedUpBy, validBodies } from './resources.js';

/**
 * Every v1 operation, from the OpenAPI document the service serves, gets requests with one thing
 * broken at a time (see cases.ts). Whatever comes in: never a 5xx; every 4xx in the Error shape,
 * as JSON, with the code that goes with its status; a NUL in a field is 400 naming that field, and
 * a NUL in a path id is 404. No request leaves this machine: name resolution and outbound
 * connections are refused.
 */

const doc = v1App().getOpenAPI31Document(openApiDocumentConfig(PUBLIC_URL));
const operations = operationsOf(doc);

interface Failure {
  case: string;
  status: number;
  problem: string;
  body: string;
}

function fieldNamed(details: Record<string, unknown>, path: string): boolean {
  const fields = Array.isArray(details.fields) ? (details.fields as { path?: unknown }[]) : [];
  return fields.some((f) => typeof f.path === 'string' && (f.path === path || f.path.startsWith(`${path}.`) || path.startsWith(`${f.path}.`)));
}

async function check(server: TestServer, workspace: FuzzWorkspace, c: FuzzCase, baselineStatus: number | undefined): Promise<{ status: number; failure?: Failure }> {
  const path = c.path.replace(/\{(\w+)\}/g, (_, name: string) => c.pathOverrides[name] ?? workspace.realId(c.path, name));
  const caseName = `${c.operationId} ${c.location}: ${c.mutation}`;
  let res: Response;
  let text: string;
  try {
    res = await server.fetch(`/api/v1${path}${c.query ? `?${c.query}` : ''}`, { method: c.method, token: workspace.key, headers: c.headers, body: c.body });
    text = await res.text();
  } catch (err) {
    // Every request gets an answer; a dropped connection is a failure too.
    return { status: 0, failure: { case: caseName, status: 0, problem: `no answer: ${String((err as Error).cause ?? err)}`, body: '' } };
  }
  const fail = (problem: string) => ({
    status: res.status,
    failure: { case: caseName, status: res.status, problem, body: text.slice(0, 200) },
  });
  if (res.status >= 500) return fail('server error');
  if (res.status >= 400) {
    if (!/^application\/json/.test(res.headers.get('content-type') ?? '')) return fail(`content-type ${res.headers.get('content-type')}`);
    let parsed;
    try {
      parsed = ErrorSchema.safeParse(JSON.parse(text));
    } catch {
      return fail('body is not JSON');
    }
    if (!parsed.success) return fail('body is not the Error shape');
    const { code, details, docs } = parsed.data.error;
    if (errorStatus[code as ErrorCode] !== res.status) return fail(`code ${code} does not go with status ${res.status}`);
    if (!docs.startsWith(`${PUBLIC_URL}/docs/errors#`)) return fail(`docs ${docs}`);
    if (c.expectNotFound && (res.status !== 404 || code !== 'not_found')) return fail('a NUL in a path id must be 404 not_found');
    // A NUL is refused naming its field, unless the valid request was itself a 400 for another reason.
    if (c.nulField && baselineStatus !== 400 && res.status === 400 && !fieldNamed(details, c.nulField.path)) {
      return fail(`400 does not name ${c.nulField.path}`);
    }
    if (c.nulField && baselineStatus !== 400 && res.status !== 400 && res.status < 500 && res.status !== 413) {
      // The NUL must not have been let through to a later refusal (404, 409…) either.
      if (res.status === (baselineStatus ?? 0)) return fail(`a NUL in ${c.nulField.path} was not refused (${res.status}, as the valid request)`);
    }
  } else if (c.expectNotFound) {
    return fail('a NUL in a path id was accepted');
  }
  const usedUp = res.status < 300 ? usedUpBy(c) : null;
  if (usedUp) await workspace.refresh(usedUp);
  return { status: res.status };
}

/**
 * The suite over the operations of one group (cases.ts `inGroup`), against a server of its own: each
 * group is a test file of its own, so the groups run side by side (docs/testing.md).
 */
export function fuzzCasesOf(group: OperationGroup) {
  let server: TestServer;
  let workspace: FuzzWorkspace;

  beforeAll(async () => {
    server = await startFuzzServer();
    workspace = await FuzzWorkspace.create(server);
  }, 60_000);
  afterAll(() => server?.stop());

  const mine = operations.filter((op) => inGroup(op, group));

  describe(`fuzzing every v1 operation (${group})`, () => {
    it('covers every operation of its group', () => {
      expect(operations.length).toBeGreaterThanOrEqual(28);
      expect(mine.length).toBeGreaterThan(0);
      for (const op of mine)
        expect(casesFor(doc, op, validBodies(workspace.ids)[op.operationId]).length).toBeGreaterThan(op.pathParams.length + op.queryParams.length + (op.bodySchema ? 1 : 0));
    });

    it.each(mine.map((op) => [`${op.method} ${op.path}`, op] as const))(
      '%s: no 5xx, and every 4xx in the Error shape',
      async (_, op) => {
        const cases = casesFor(doc, op, validBodies(workspace.ids)[op.operationId]);
        const failures: Failure[] = [];
        let baselineStatus: number | undefined;
        for (const c of cases) {
          const { status, failure } = await check(server, workspace, c, baselineStatus);
          if (c.mutation === 'valid') {
            baselineStatus = status;
            // The valid request must not be refused for its own sake (409 and the like are states).
            expect(status === 400 || status === 413 || status === 415, `${op.operationId}: the valid request was refused (${status})`).toBe(false);
          }
          if (failure) failures.push(failure);
        }
        expect(failures, `${failures.length} of ${cases.length} cases failed`).toEqual([]);
      },
      120_000,
    );
  });
}
