import type { SaveRequest } from './save-file';

/**
 * The page's half of public/e2ee-download-sw.js (its top comment has the protocol). The worker is registered
 * for `/_e2ee/` only and is handed one stream per download; the synthetic URL carries a random id, never the
 * file's name or the link's key.
 */

const WORKER_URL = '/e2ee-download-sw.js';
const SCOPE = '/_e2ee/';
/** How long the browser may take to request the synthetic URL once the worker has the stream. */
const START_TIMEOUT_MS = 30_000;
/** A message to the worker now and then keeps it alive during a long download (an idle one may be stopped). */
const KEEP_ALIVE_MS = 10_000;

/** Why a save through the worker failed, for the page to say in the reader's words (the message is for logs). */
export type WorkerSaveFailure = 'helper_not_started' | 'download_not_started' | 'cancelled';

export class WorkerSaveFailed extends Error {
  override readonly name = 'WorkerSaveFailed';
  readonly reason: WorkerSaveFailure;

  constructor(reason: WorkerSaveFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

export function serviceWorkerSaving(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator && window.isSecureContext && typeof ReadableStream !== 'undefined';
}

let registered: Promise<ServiceWorker> | null = null;

/** The active download worker, registered on first use (the page may call this early to have it ready). */
export function downloadWorker(): Promise<ServiceWorker> {
  registered ??= (async () => {
    const registration = await navigator.serviceWorker.register(WORKER_URL, { scope: SCOPE });
    const worker = registration.active ?? registration.waiting ?? registration.installing;
    if (!worker) throw new WorkerSaveFailed('helper_not_started', 'The download helper could not be started.');
    if (worker.state === 'activated') return worker;
    await new Promise<void>((resolve, reject) => {
      worker.addEventListener('statechange', () => {
        if (worker.state === 'activated') resolve();
        else if (worker.state === 'redundant') reject(new WorkerSaveFailed('helper_not_started', 'The download helper could not be started.'));
      });
    });
    return worker;
  })();
  registered.catch(() => {
    registered = null;
  });
  return registered;
}

/** Whether this browser can post a ReadableStream to a worker (Chromium, Firefox 103+, Safari 17.4+). */
function streamsTransfer(): boolean {
  try {
    const stream = new ReadableStream();
    const channel = new MessageChannel();
    channel.port1.postMessage(stream, [stream as unknown as Transferable]);
    channel.port1.close();
    return true;
  } catch {
    return false;
  }
}

function randomId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(18)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Streams `stream` into a download of `request.filename`, exactly `request.size` bytes; settles when the page has handed over every byte. */
export async function saveThroughServiceWorker(stream: ReadableStream<Uint8Array>, request: SaveRequest): Promise<void> {
  const worker = await downloadWorker();
  const id = randomId();
  const channel = new MessageChannel();
  const port = channel.port1;
  const offer = { type: 'parcel-e2ee-save', id, filename: request.filename, size: request.size };

  let handedOver: Promise<void>;
  if (streamsTransfer()) {
    // The worker reads the other end of this pipe; pipeTo settles once every byte went in, or fails (and errors the download).
    const pipe = new TransformStream<Uint8Array, Uint8Array>();
    handedOver = stream.pipeTo(pipe.writable);
    worker.postMessage({ ...offer, stream: pipe.readable }, [channel.port2, pipe.readable as unknown as Transferable]);
  } else {
    handedOver = pushOnRequest(stream, port);
    worker.postMessage(offer, [channel.port2]);
  }

  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new WorkerSaveFailed('download_not_started', 'The browser did not start the download.')), START_TIMEOUT_MS);
    port.addEventListener('message', (event: MessageEvent<{ type?: string }>) => {
      if (event.data.type === 'ready') openHidden(id);
      else if (event.data.type === 'started') {
        clearTimeout(timer);
        resolve();
      }
    });
    port.start();
  });
  const keepAlive = setInterval(() => worker.postMessage({ type: 'parcel-e2ee-keep-alive' }), KEEP_ALIVE_MS);
  try {
    await Promise.all([started, handedOver]);
  } catch (error) {
    await stream.cancel(error).catch(() => {});
    throw error;
  } finally {
    clearInterval(keepAlive);
    // The frame's download is the browser's now; the frame itself can go after a moment.
    setTimeout(() => document.getElementById(`e2ee-save-${id}`)?.remove(), 5_000);
  }
}

/** Asks the worker's URL in a hidden frame: a navigation it answers with the attachment, which the browser saves. */
function openHidden(id: string) {
  const frame = document.createElement('iframe');
  frame.id = `e2ee-save-${id}`;
  frame.hidden = true;
  frame.title = 'Download';
  frame.src = `${SCOPE}${id}`;
  document.body.append(frame);
}

/** The chunk protocol: one chunk per `pull`, so the page never runs ahead of the disk. */
function pushOnRequest(stream: ReadableStream<Uint8Array>, port: MessagePort): Promise<void> {
  const reader = stream.getReader();
  return new Promise<void>((resolve, reject) => {
    port.addEventListener('message', (event: MessageEvent<{ type?: string }>) => {
      if (event.data.type === 'cancel') {
        reader.cancel().catch(() => {});
        reject(new WorkerSaveFailed('cancelled', 'The download was cancelled.'));
      }
      if (event.data.type !== 'pull') return;
      reader.read().then(
        ({ done, value }) => {
          if (done) {
            port.postMessage({ type: 'end' });
            resolve();
            return;
          }
          const chunk = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? value.buffer : value.slice().buffer;
          port.postMessage({ type: 'chunk', chunk }, [chunk as ArrayBuffer]);
        },
        (error: unknown) => {
          port.postMessage({ type: 'error', message: error instanceof Error ? error.message : 'The download failed.' });
          reject(error);
        },
      );
    });
  });
}
