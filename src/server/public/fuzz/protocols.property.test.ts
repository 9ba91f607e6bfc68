import net from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorSchema } from '../../../contract/errors.js';
import { DownloadSessionSchema } from '../../../contract/public.js';
import { PublicCollectionFilePageSchema } from '../../../contract/public-collections.js';
import { DownloadLinksSchema } from '../../../contract/transfers.js';
import { late, type FuzzRequest, type FuzzWorld } from '../../api/v1/fuzz/arbitraries.js';
import { assertProperty, fuzzRuns, printStatuses, sendAndCheck, type Answer, type AnswerRules } from '../../api/v1/fuzz/check.js';
import { FuzzWorkspace, PUBLIC_URL, startFuzzServer } from '../../api/v1/fuzz/resources.js';
import { collectionsApi, previewsSettled } from '../../test/collections.js';
import { purposeKey, signToken, type TokenPurpose } from '../../downloads/signing.js';
import { encodeCursor } from '../../core/cursor.js';
import type { TestServer } from '../../test/harness.js';
import { seedTransfer } from '../../test/transfers.js';
import { issueUploadToken } from '../../uploads/tokens.js';
import { tusUpload } from '../../test/uploads.js';
import { downloadRequest, tusRequest, type ForgedClaims } from './protocol-arbitraries.js';

/**
 * Property-based fuzzing of the two endpoints that speak a protocol rather than JSON: the tus 1.0
 * upload endpoint (creation, HEAD, PATCH, DELETE, OPTIONS on uploads that are fresh, started,
 * complete or unknown, with random tus headers, upload tokens and bodies) and the signed download
 * and preview URLs (live, tampered, forged, expired and foreign tokens, with every kind of Range
 * and If-Range). Never a 5xx, never a hang; errors in JSON are in the Error shape (tus refusals
 * always are); every tus answer names Tus-Resumable; a 416 carries a Content-Range with the size;
 * a 206 or 200 serves exactly the bytes it says, the same bytes as the whole download. A failure
 * prints FUZZ_SEED to replay it; FUZZ_RUNS sets the runs.
 */

const RUNS = fuzzRuns(40);
const rules: AnswerRules = { publicUrl: PUBLIC_URL, errorShape: 'always' };

let server: TestServer;
let workspace: FuzzWorkspace;
const live: Record<string, string> = {};
/** The whole body of each live download link, to compare every 200 and 206 with. */
const wholeBody = new Map<string, Buffer>();
const DOWNLOADS = ['dl:text', 'dl:binary', 'dl:empty', 'dl:zip', 'dl:owner', 'dl:owner-zip', 'dl:collection', 'dl:collection-zip'];
const PREVIEWS = ['thumb:image'];
const UPLOAD_SIZE = 10;

const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;

async function tusCall(method: string, path: string, headers: Record<string, string>, body?: Buffer) {
  const res = await fetch(`${server.url}${path}`, { method, headers: { 'tus-resumable': '1.0.0', ...headers }, body: body ? new Uint8Array(body) : undefined });
  if (!res.ok) throw new Error(`fuzz setup: tus ${method} ${path} answered ${res.status} ${await res.text()}`);
  return res;
}

/** Files registered for upload, `size` bytes each, with their upload tokens. */
async function registerUploads(count: number): Promise<{ id: string; uploadToken: string }[]> {
  const files = Array.from({ length: count }, (_, i) => ({ name: `u${i}.bin`, size: UPLOAD_SIZE }));
  return (await workspace.call('POST', '/transfers', { title: 'Uploads', files })).files;
}

/** A fresh upload (nothing sent), a started one (3 of its bytes stored), a complete one, and tokens that open none of them. */
async function renewUploads() {
  const [fresh, started, complete, other] = await registerUploads(4);
  const set = (kind: string, file: { id: string; uploadToken: string }, offset: number) => {
    live[`${kind}:id`] = file.id;
    live[`${kind}:token`] = file.uploadToken;
    live[`${kind}:size`] = String(UPLOAD_SIZE);
    live[`${kind}:offset`] = String(offset);
  };
  set('tus:fresh', fresh!, 0);
  set('tus:started', started!, 3);
  set('tus:complete', complete!, UPLOAD_SIZE);
  await tusCall('POST', '/files/', { 'x-service-upload-token': started!.uploadToken, 'upload-length': String(UPLOAD_SIZE) });
  await tusCall('PATCH', `/files/${started!.id}`, { 'x-service-upload-token': started!.uploadToken, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, Buffer.from('abc'));
  await tusUpload(Buffer.alloc(UPLOAD_SIZE, 7), { endpoint: `${server.url}/files/`, token: complete!.uploadToken });
  live['tus:other-token'] = other!.uploadToken;
  const past = new Date(server.clock.now().getTime() - 3 * 3_600_000);
  live['tus:expired-token'] = (await issueUploadToken(server.services.db, { fileId: started!.id, workspaceId: workspace.workspaceId, now: past, ttlSeconds: 60 })).token;
}

async function fetchWhole(kind: string) {
  const res = await server.fetch(`/dl/${live[kind]}`);
  if (res.status !== 200) throw new Error(`fuzz setup: ${kind} answered ${res.status} ${await res.text()}`);
  live[`${kind}:etag`] = res.headers.get('etag')!;
  wholeBody.set(kind, Buffer.from(await res.arrayBuffer()));
}

beforeAll(async () => {
  server = await startFuzzServer();
  workspace = await FuzzWorkspace.create(server);
  const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();

  const seeded = await seedTransfer(server, {
    workspaceId: workspace.workspaceId,
    title: 'Downloads',
    files: [
      { name: 'a.txt', data: Buffer.from('hello, fuzz, these are the bytes'), mimeType: 'text/plain' },
      { name: 'b.bin', data: Buffer.from(Array.from({ length: 2048 }, (_, i) => i % 251)), path: 'nested' },
      { name: 'empty.txt', data: Buffer.alloc(0) },
    ],
  });
  const session = await server.fetch(`/api/public/transfers/${seeded.transfer.slug}/sessions`, { method: 'POST', json: {} });
  const visit = DownloadSessionSchema.parse(await session.json());
  for (const [i, kind] of ['dl:text', 'dl:binary', 'dl:empty'].entries()) live[kind] = tokenOf(visit.files[i]!.url);
  live['dl:zip'] = tokenOf(visit.zip!.url);
  const owner = DownloadLinksSchema.parse(await workspace.call('GET', `/transfers/${seeded.transfer.id}/download-links`));
  live['dl:owner'] = tokenOf(owner.files[1]!.url);
  live['dl:owner-zip'] = tokenOf(owner.zip.url);

  const collections = collectionsApi(server, workspace.key);
  const shown = await collections.create({ title: 'Shown', visibility: 'public' });
  await collections.upload(shown.id, [
    { name: 'c.txt', bytes: Buffer.from('collection bytes') },
    { name: 'photo.png', bytes: image, mimeType: 'image/png', path: 'pictures' },
  ]);
  await previewsSettled(server, shown.id);
  const links = DownloadLinksSchema.parse(await (await server.fetch(`/api/public/collections/${shown.slug}/download-links`)).json());
  live['dl:collection'] = tokenOf(links.files[0]!.url);
  live['dl:collection-zip'] = tokenOf(links.zip.url);
  const page = PublicCollectionFilePageSchema.parse(await (await server.fetch(`/api/public/collections/${shown.slug}/files`)).json());
  live['thumb:image'] = tokenOf(page.files.find((f) => f.thumbnailUrl)!.thumbnailUrl!);
  const preview = await server.fetch(`/thumb/${live['thumb:image']}`);
  live['thumb:image:etag'] = preview.headers.get('etag') ?? '"none"';
  for (const kind of DOWNLOADS) await fetchWhole(kind);
  await renewUploads();
}, 120_000);
afterAll(async () => {
  printStatuses();
  await server?.stop();
});

const world: FuzzWorld = {
  id: (kind) => live[kind] ?? `unknown-${kind}`,
  cursor: () => null,
  signCursor: (list, workspaceId, position) => encodeCursor(server.services.cursorKey, list, workspaceId, position as (string | number)[]),
  get workspaceId() {
    return workspace.workspaceId;
  },
};

/** A token signed with the server's key for `purpose`, its claims made from the live token of `kind`. */
const forger = (purpose: TokenPurpose) => (name: string, claims: ForgedClaims, kind: string) =>
  late(`${kind} forged: ${name}`, (w) => {
    const real = JSON.parse(Buffer.from(w.id(kind).split('.')[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    return signToken(purposeKey(server.services.cursorKey, purpose), claims(real, server.clock.now().getTime()));
  });

/** What is wrong with the bytes of a download answer, or null: a range's Content-Range, length and bytes must agree with the whole. */
function wrongBytes(req: FuzzRequest, answer: Answer): string | null {
  if (req.method !== 'GET' || (answer.status !== 200 && answer.status !== 206)) return null;
  const length = Number(answer.headers.get('content-length'));
  if (length !== answer.body.length) return `Content-Length ${length} but ${answer.body.length} bytes`;
  const kind = /^\/dl\/(\S+) \(live\)$/.exec(req.label)?.[1];
  const whole = kind ? wholeBody.get(kind) : undefined;
  if (!whole || req.path.length > 2) return null;
  if (answer.status === 200) return answer.body.equals(whole) ? null : 'the whole download differs from before';
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(answer.headers.get('content-range') ?? '');
  if (!range) return `206 with Content-Range ${answer.headers.get('content-range')}`;
  const [start, end, size] = range.slice(1).map(Number) as [number, number, number];
  if (size !== whole.length || end >= size || start > end) return `Content-Range ${range[0]} for ${whole.length} bytes`;
  return answer.body.equals(whole.subarray(start, end + 1)) ? null : `bytes ${start}-${end} differ from the whole download`;
}

describe('property fuzzing the signed download and preview URLs', () => {
  it('/dl: never a 5xx or a hang; errors in the Error shape; 416 with Content-Range; ranges serve the right bytes', async () => {
    await assertProperty(
      downloadRequest('/dl/', DOWNLOADS, forger('download-links'), 'thumb:image'),
      async (req) => {
        const answer = await sendAndCheck(server.url, req, world, rules);
        const problem = wrongBytes(req, answer);
        if (problem) throw new Error(problem);
      },
      RUNS * 10,
    );
  }, 600_000);

  it('/thumb: never a 5xx or a hang; errors in the Error shape', async () => {
    await assertProperty(
      downloadRequest('/thumb/', PREVIEWS, forger('thumbnails'), 'dl:text'),
      async (req) => {
        await sendAndCheck(server.url, req, world, rules);
      },
      RUNS * 3,
    );
  }, 600_000);
});

describe('property fuzzing the tus endpoint', () => {
  it('never a 5xx or a hang; every refusal in the Error shape; every answer but a preflight names Tus-Resumable', async () => {
    await assertProperty(
      tusRequest(['tus:fresh', 'tus:started', 'tus:complete']),
      async (req) => {
        const answer = await sendAndCheck(server.url, req, world, rules);
        // Answers of the app (not of Node's HTTP parser, which has no X-Request-Id) speak tus 1.0.
        if (req.method !== 'OPTIONS' && answer.headers.has('x-request-id') && answer.headers.get('tus-resumable') !== '1.0.0') {
          throw new Error(`${answer.status} without Tus-Resumable: 1.0.0`);
        }
        // A request that changed an upload: the next one starts again from a fresh, a started and a complete upload.
        if (answer.status < 300 && !['HEAD', 'OPTIONS', 'GET'].includes(req.method)) await renewUploads();
      },
      RUNS * 10,
    );
  }, 600_000);

});

describe('regressions found by fuzzing', () => {
  // Found with the OAuth provider's HEAD (FUZZ_SEED=531570779): a route that writes the Node
  // response itself was written a second time for HEAD. Previews are such a route.
  it('answers HEAD on a preview once, with the headers of its GET and no body', async () => {
    const printed = vi.spyOn(console, 'error');
    try {
      const head = await server.fetch(`/thumb/${live['thumb:image']}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('image/webp');
      expect(await head.text()).toBe('');
      await new Promise((resolve) => setImmediate(resolve));
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });
});

/** Sends `requests` at once on one connection and splits what comes back into answers (each with a Content-Length). */
function pipelined(requests: string[]): Promise<{ status: number; headers: Headers; body: Buffer }[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1', () => socket.write(requests.join('')));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const answers = [];
      let rest = Buffer.concat(chunks);
      while (rest.length > 0) {
        const end = rest.indexOf('\r\n\r\n');
        const [statusLine, ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
        const headers = new Headers(lines.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()] as [string, string]));
        const length = Number(headers.get('content-length') ?? 0);
        answers.push({ status: Number(statusLine!.split(' ')[1]), headers, body: rest.subarray(end + 4, end + 4 + length) });
        rest = rest.subarray(end + 4 + length);
      }
      resolve(answers);
    });
  });
}

describe('regressions found by fuzzing (HTTP)', () => {
  // FUZZ_SEED=1 and FUZZ_SEED=3 (FUZZ_RUNS=150): a keep-alive client that sent its next request
  // before the preview it had just read was finished on the server (its stream not yet ended) got
  // no 431 for headers over 16 KB: the connection was dropped. Pipelined, the first answer was lost too.
  it('answers a pipelined request the parser refuses after the answer in flight, in the Error shape', async () => {
    const preview = `GET /thumb/${live['thumb:image']} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    const tooLarge = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Huge: ${'h'.repeat(20_000)}\r\n\r\n`;
    const [first, second, ...more] = await pipelined([preview, tooLarge]);
    expect(first!.status).toBe(200);
    expect(first!.headers.get('content-type')).toBe('image/webp');
    expect(first!.body.length).toBe(Number(first!.headers.get('content-length')));
    expect(second!.status).toBe(431);
    expect(ErrorSchema.parse(JSON.parse(second!.body.toString('utf8'))).error.code).toBe('headers_too_large');
    expect(more).toEqual([]);
  });
});
