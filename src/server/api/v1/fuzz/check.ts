import fc from 'fast-check';
import { expect } from 'vitest';
import { ErrorSchema, errorStatus, type ErrorCode } from '../../../../contract/errors.js';
import { encodeJson, Late, type FuzzRequest, type FuzzWorld, type Piece } from './arbitraries.js';
import { rawHttp } from './raw-http.js';

/**
 * Sending generated requests and judging the answers, for every property fuzz suite: the seed and
 * the number of runs (FUZZ_SEED, FUZZ_RUNS), the per-request time limit that turns a hang into a
 * failure, and the properties themselves (no 5xx; a 4xx in the Error shape with the code of its
 * status). A failure names the seed and the shrunk request, and how to replay it.
 */

/** The run's seed: FUZZ_SEED when set, else a fresh one (printed with any failure). */
export const FUZZ_SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
/** With FUZZ_SEED and -t naming one test: replays exactly the shrunk counterexample. */
const FUZZ_PATH = process.env.FUZZ_PATH || undefined;

/** Runs per property: FUZZ_RUNS when set, else the suite's default (sized for CI). */
export const fuzzRuns = (fallback: number) => (process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : fallback);

/** How long a request may take before it counts as a hang. Generous: CI runs on two busy cores. */
export const REQUEST_TIMEOUT_MS = Number(process.env.FUZZ_REQUEST_TIMEOUT_MS ?? 20_000);

export interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
}

const resolvePiece = (p: Piece, world: FuzzWorld) => (p instanceof Late ? p.value(world) : p);

/** Sends the request to the server at `baseUrl`; a request that gets no answer in time throws, naming the hang. */
export async function send(baseUrl: string, req: FuzzRequest, world: FuzzWorld): Promise<Answer> {
  const target = req.path.map((p) => resolvePiece(p, world)).join('') + (req.query.length > 0 ? `?${req.query.map((parts) => parts.map((p) => resolvePiece(p, world)).join('')).join('&')}` : '');
  const headers = req.headers.map(([name, value]): [string, string] => [name, resolvePiece(value, world)]);
  const body = !req.body ? undefined : req.body.kind === 'bytes' ? req.body.bytes : encodeJson(req.body.value, world);
  const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const overSocket = () => rawHttp(new URL(baseUrl), { method: req.method, target, headers, body }, signal);
  try {
    if (req.raw) return await overSocket();
    const h = new Headers();
    try {
      for (const [name, value] of headers) h.append(name, value);
    } catch {
      return await overSocket();
    }
    const res = await fetch(`${baseUrl}${target}`, { method: req.method, headers: h, body: ['GET', 'HEAD'].includes(req.method) || !body ? undefined : new Uint8Array(body), signal, redirect: 'manual' }).catch(
      (err: unknown) => {
        // fetch refuses some header values itself (an empty Accept-Encoding, a control character): those go over a socket.
        if ((err as { cause?: { code?: string } }).cause?.code === 'UND_ERR_INVALID_ARG') return null;
        throw err;
      },
    );
    if (!res) return await overSocket();
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  } catch (err) {
    if ((err as Error).name === 'TimeoutError' || signal.aborted) throw new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms: the server hung`);
    throw new Error(`no answer: ${String((err as Error).cause ?? err)}`);
  }
}

export interface AnswerRules {
  publicUrl: string;
  /**
   * `always`: every 4xx is JSON in the Error shape (the JSON APIs). `when-json`: a 4xx may be a
   * protocol's own answer, but one in JSON is in the Error shape.
   */
  errorShape: 'always' | 'when-json';
  /** A protocol's own JSON error body that is acceptable too (OAuth's `{ error }`, JSON-RPC's). */
  alsoAccept?: (json: unknown) => boolean;
}

/** What is wrong with an answer, or null: a 5xx, or a 4xx that is not the Error shape with its status's code. */
export function problemWith(answer: Answer, method: string, rules: AnswerRules): string | null {
  const { status, headers } = answer;
  const text = answer.body.toString('utf8');
  if (status >= 500) return `server error ${status}: ${text.slice(0, 300)}`;
  if (status === 416 && !/^bytes \*\/\d+$/.test(headers.get('content-range') ?? '')) return `416 without Content-Range: bytes */<size> (${headers.get('content-range')})`;
  if (status < 400 || method === 'HEAD') return null;
  const contentType = headers.get('content-type') ?? '';
  if (!/^application\/json/.test(contentType)) return rules.errorShape === 'always' ? `${status} with content-type ${contentType}: ${text.slice(0, 200)}` : null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return `${status} body is not JSON: ${text.slice(0, 200)}`;
  }
  const parsed = ErrorSchema.safeParse(json);
  if (!parsed.success && rules.alsoAccept?.(json)) return null;
  if (!parsed.success) return `${status} body is not the Error shape: ${text.slice(0, 300)}`;
  const { code, docs } = parsed.data.error;
  if (errorStatus[code as ErrorCode] !== status) return `code ${code} does not go with status ${status}`;
  if (!docs.startsWith(`${rules.publicUrl}/docs/errors#`)) return `docs ${docs}`;
  return null;
}

/** Statuses seen per request label, printed by `printStatuses` with FUZZ_STATS=1: shows whether valid requests get past validation. */
const statuses = new Map<string, Map<number, number>>();

export function printStatuses(): void {
  if (process.env.FUZZ_STATS !== '1') return;
  const lines = [...statuses].map(([label, counts]) => `${label}: ${[...counts].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ')}`);
  console.log(`statuses (FUZZ_SEED=${FUZZ_SEED}):\n${lines.join('\n')}`);
}

/**
 * What the server printed to console.error: the test server runs in this process with a silent
 * logger, so anything here is an error that escaped the app (@hono/node-server reports those).
 */
const printedErrors: string[] = [];
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  printedErrors.push(args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : String(a))).join(' '));
  consoleError(...args);
};

/** Sends the request and throws (for fast-check to report and shrink) when the answer breaks the rules. */
export async function sendAndCheck(baseUrl: string, req: FuzzRequest, world: FuzzWorld, rules: AnswerRules): Promise<Answer> {
  printedErrors.length = 0;
  // FUZZ_TRACE=1 prints every request before it goes: the ones before a failure are its context.
  if (process.env.FUZZ_TRACE === '1') console.log(`→ ${fc.stringify(req).slice(0, 400)}`);
  const answer = await send(baseUrl, req, world);
  if (process.env.FUZZ_TRACE === '1') console.log(`← ${answer.status} ${answer.body.subarray(0, 200).toString('utf8')}`);
  // The server may still be finishing the request after the client has the answer.
  await new Promise((resolve) => setImmediate(resolve));
  if (printedErrors.length > 0) throw new Error(`the server printed an error: ${printedErrors.join('; ').slice(0, 300)}`);
  const seen = statuses.get(req.label) ?? new Map<number, number>();
  statuses.set(req.label, seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1));
  const problem = problemWith(answer, req.method, rules);
  if (problem) throw new Error(problem);
  return answer;
}

/**
 * Checks a property over `runs` generated values with the run's seed. A failure reports the seed,
 * the shrunk counterexample and the command that replays it.
 */
export async function assertProperty<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, runs: number): Promise<void> {
  try {
    await fc.assert(fc.asyncProperty(fc.limitShrink(arbitrary, 60), predicate), { seed: FUZZ_SEED, numRuns: runs, path: FUZZ_PATH });
  } catch (err) {
    const report = err instanceof Error ? err.message : String(err);
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : report.split('\n')[0];
    const path = /path: "([^"]*)"/.exec(report)?.[1] ?? '';
    const { testPath, currentTestName } = expect.getState();
    const testName = currentTestName?.split(' > ').pop() ?? '';
    const replay = `FUZZ_SEED=${FUZZ_SEED} FUZZ_PATH=${path} npx vitest run --project server ${testPath ?? ''} -t ${JSON.stringify(testName)}`;
    throw new Error(`Property failed with FUZZ_SEED=${FUZZ_SEED}: ${cause}\nReplay it: ${replay}\n${report}`, { cause: err });
  }
}
