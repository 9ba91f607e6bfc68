/**
 * The Argon2id worker: hash-wasm's Argon2id off the page's thread, so 64 MiB and three passes never freeze the page.
 * Loaded only by argon2InWorker (vault.ts) as a module Worker, which sends one request and terminates the worker when
 * it answers, so the WebAssembly memory (64 MiB, with a copy of the passphrase in it) goes with the worker.
 *
 * It imports nothing of vault.ts but types: a worker bundle that held vault.ts would hold `new Worker(…this file…)`.
 * The worker scope is typed here by the little it uses, so the project's DOM-typed check passes without WebWorker types.
 */
import { argon2id } from 'hash-wasm';
import { fromBase64url } from './base64url.js';
import type { Argon2Request, Argon2Response } from './vault.js';

interface WorkerScope {
  onmessage: ((event: { data: Argon2Request }) => void) | null;
  postMessage(message: Argon2Response): void;
}

const scope = globalThis as unknown as WorkerScope;

async function answer({ passphrase, params }: Argon2Request): Promise<Argon2Response> {
  try {
    const hash = await argon2id({
      password: passphrase,
      salt: fromBase64url(params.salt),
      memorySize: params.memoryKiB,
      iterations: params.iterations,
      parallelism: params.parallelism,
      hashLength: 32,
      outputType: 'binary',
    });
    return { hash };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  } finally {
    passphrase.fill(0);
  }
}

scope.onmessage = (event) => {
  void answer(event.data).then((response) => scope.postMessage(response));
};
