import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../../core/cursor.js';
import type { TestServer } from '../../../test/harness.js';
import { v1App } from '../index.js';
import { openApiDocumentConfig } from '../openapi.js';
import { liveId, requestArbitrary, type FuzzWorld, type SchemaContext } from './arbitraries.js';
import { inGroup, operationsOf, type Operation, type OperationGroup } from './cases.js';
import { assertProperty, fuzzRuns, printStatuses, sendAndCheck, type AnswerRules } from './check.js';
import { FuzzWorkspace, PUBLIC_URL, startFuzzServer, usedUpBy, validBodies, type ResourceKind } from './resources.js';

/**
 * Property-based fuzzing of every v1 operation in the OpenAPI document the service serves: for each
 * operation, fast-check generates requests from its schemas (valid ones, and ones with wrong types,
 * missing and extra fields, huge strings, deep nesting, unicode edge cases, boundary numbers, bad
 * ids, forged cursors, odd Idempotency-Keys, content types, credentials and headers) against a
 * workspace with a live resource of each kind. Whatever comes: never a 5xx, never a hang, every 4xx
 * JSON in the Error shape with the code of its status. A failure prints FUZZ_SEED to replay it;
 * FUZZ_RUNS sets the runs per operation.
 */

const doc = v1App().getOpenAPI31Document(openApiDocumentConfig(PUBLIC_URL));
const operations = operationsOf(doc);
const RUNS = fuzzRuns(40);
const rules: AnswerRules = { publicUrl: PUBLIC_URL, errorShape: 'always' };

/**
 * The suite over the operations of one group (cases.ts `inGroup`), against a server of its own: each
 * group is a test file of its own, so the groups run side by side (docs/testing.md).
 */
export function fuzzPropertiesOf(group: OperationGroup) {
  let server: TestServer;
  const logLines: string[] = [];
  let workspace: FuzzWorkspace;

  beforeAll(async () => {
    server = await startFuzzServer({}, process.env.FUZZ_LOGS === '1' ? logLines : undefined);
    workspace = await FuzzWorkspace.create(server);
    // A second transfer, so that the list of transfers has a next page.
    await workspace.call('POST', '/transfers', { title: 'Second', files: [{ name: 'b.txt', size: 3 }] });
  }, 60_000);
  afterAll(async () => {
    printStatuses();
    // FUZZ_LOGS=1: what the server warned about (input that reached the database unvalidated, and the like).
    if (process.env.FUZZ_LOGS === '1') console.log(logLines.filter((l) => /"level":(40|50)/.test(l)).join('\n'));
    await server?.stop();
  });

  /** Body fields that name a resource get the live one most of the time. */
  const fieldKinds: Record<string, ResourceKind> = { collectionId: 'collection', folderId: 'folder', parentId: 'folder', fileIds: 'collectionFile', deliveryId: 'delivery' };
  const ctx: SchemaContext = { doc, idFor: (name) => (fieldKinds[name] ? liveId(fieldKinds[name]) : undefined) };
  const placeholders = validBodies({ collection: liveId('collection'), folder: liveId('folder'), collectionFile: liveId('collectionFile') });

  /** The cursor each list would issue now, signed with the server's key (lists are bound to their resource and workspace). */
  function issuedCursor(operationId: string): string | null {
    const key = server.services.cursorKey;
    const { ids, workspaceId } = workspace;
    if (operationId === 'listTransfers') return encodeCursor(key, 'transfers', workspaceId, [server.clock.now().toISOString(), ids.transfer]);
    if (operationId === 'listCollectionFiles') return encodeCursor(key, `collection-files:${ids.collection}`, workspaceId, [1]);
    if (operationId === 'listWebhookEvents') return encodeCursor(key, `webhook-events:${ids.webhook}`, workspaceId, [0]);
    return null;
  }

  const worldFor = (op: Operation): FuzzWorld => ({
    id: (kind) => workspace.ids[kind as ResourceKind],
    cursor: () => issuedCursor(op.operationId),
    signCursor: (list, workspaceId, position) => encodeCursor(server.services.cursorKey, list, workspaceId, position as (string | number)[]),
    get workspaceId() {
      return workspace.workspaceId;
    },
  });

  function arbitraryFor(op: Operation) {
    return requestArbitrary(ctx, op, {
      prefix: '/api/v1',
      validBody: placeholders[op.operationId],
      liveParam: (param) => {
        const kind = FuzzWorkspace.kindOf(op.path, param);
        return kind ? liveId(kind) : null;
      },
      credential: { header: 'authorization', value: `Bearer ${workspace.key}` },
    });
  }

  const mine = operations.filter((op) => inGroup(op, group));

  describe(`property fuzzing every v1 operation (${group})`, () => {
    it('has every operation of its group to fuzz', () => {
      expect(operations.length).toBeGreaterThanOrEqual(54);
      expect(mine.length).toBeGreaterThan(0);
      for (const op of mine) expect(op.operationId, `${op.method} ${op.path}`).toBeTruthy();
    });

    it.each(mine.map((op) => [`${op.method} ${op.path}`, op] as const))(
      '%s: never a 5xx or a hang, every 4xx in the Error shape',
      async (_, op) => {
        const world = worldFor(op);
        const usedUp = usedUpBy(op);
        await assertProperty(
          arbitraryFor(op),
          async (req) => {
            const answer = await sendAndCheck(server.url, req, world, rules);
            if (answer.status < 300 && usedUp) await workspace.refresh(usedUp);
          },
          RUNS,
        );
      },
      600_000,
    );
  });
}
