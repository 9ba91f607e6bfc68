// @module-tag scale-out — a restart on the same database and storage
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer, type RunningServer } from '../test/harness.js';
import { crcOf, fileRow, randomFile, registerFile, restartServer, storedBytes, tusUpload } from '../test/uploads.js';

const MB = 1024 * 1024;
let server: TestServer;
let second: RunningServer | null = null;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await second?.close();
  await server.stop();
});

it('resumes an upload on a restarted server (same database and DATA_DIR)', async () => {
  const bytes = randomFile(2 * MB + 4321);
  const file = await registerFile(server, bytes.length);
  const first = await tusUpload(bytes, { endpoint: `${server.url}/files/`, token: file.token, stopAfterChunk: () => true });
  expect(first.stopped).toBe(true);
  await server.close();

  second = await restartServer(server);
  const uploadUrl = first.url.replace(server.url, second.url);
  expect(uploadUrl).toBe(`${second.url}/files/${file.fileId}`);
  await tusUpload(bytes, { uploadUrl, token: file.token });

  const stored = await storedBytes(server.services, file.fileId);
  expect(stored?.equals(bytes)).toBe(true);
  const row = await fileRow(second.services, file.fileId);
  expect(row.state).toBe('complete');
  expect(row.crc32).toBe(crcOf(bytes));
});
