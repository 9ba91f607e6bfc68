// Saves a decrypted file of an end-to-end encrypted transfer to disk (issue 17), for browsers without
// showSaveFilePicker (Firefox, Safari). Registered by the recipient page with the scope /_e2ee/ only, so it
// sees no other request of the app. The page decrypts; this worker only turns the plaintext stream it is
// handed into a download response:
//
//   page -> worker   postMessage({ type: 'parcel-e2ee-save', id, filename, size, stream? }, [port, stream?])
//   worker -> page   port: { type: 'ready' }, then { type: 'started' } once the browser asked for /_e2ee/<id>
//   page             opens /_e2ee/<id> in a hidden iframe; the worker answers it once, with the stream as an
//                    attachment of exactly `size` bytes (so a stream that errors or ends early is never a
//                    complete-looking file: the browser fails the download)
//
// Where a ReadableStream cannot be transferred, the worker pulls chunks over the port instead:
//   worker -> page   { type: 'pull' } (one at a time: backpressure) or { type: 'cancel' }
//   page -> worker   { type: 'chunk', chunk: ArrayBuffer } | { type: 'end' } | { type: 'error', message }
//
// Nothing secret passes through here: no key, and the URL carries only a random id (never the file's name).
// An unknown or reused id gets a 404 from the worker itself, never the network.
'use strict';

/** @type {Map<string, { filename: string, size: number, stream: ReadableStream | null, port: MessagePort, claimed: () => void }>} */
const pending = new Map();
const PATH = /^\/_e2ee\/([A-Za-z0-9_-]{16,64})$/;
/** How long an offered download waits for its request before it is dropped. */
const OFFER_TTL_MS = 60_000;

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('message', (event) => {
  const data = event.data;
  // A keep-alive from a page whose download is still running: receiving it is the point.
  if (!data || data.type !== 'parcel-e2ee-save') return;
  const port = event.ports[0];
  if (!port || typeof data.id !== 'string' || !PATH.test(`/_e2ee/${data.id}`)) return;
  if (typeof data.filename !== 'string' || !Number.isSafeInteger(data.size) || data.size < 0) return;
  let claimed;
  const wait = new Promise((resolve) => {
    claimed = resolve;
    setTimeout(resolve, OFFER_TTL_MS);
  }).then(() => pending.delete(data.id));
  pending.set(data.id, { filename: data.filename, size: data.size, stream: data.stream || null, port, claimed });
  port.postMessage({ type: 'ready' });
  event.waitUntil(wait);
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith('/_e2ee/')) return;
  const match = PATH.exec(url.pathname);
  const offer = match ? pending.get(match[1]) : undefined;
  if (!offer) {
    event.respondWith(new Response('This download is no longer available. Start it again from the transfer page.', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } }));
    return;
  }
  pending.delete(match[1]);
  offer.claimed();
  offer.port.postMessage({ type: 'started' });
  const body = offer.stream || pulledStream(offer.port);
  event.respondWith(
    new Response(body, {
      headers: {
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(offer.size),
        'Content-Disposition': contentDisposition(offer.filename),
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-store',
      },
    }),
  );
});

/** The chunk protocol for browsers that cannot transfer a ReadableStream: asks for the next chunk only when the browser wants one. */
function pulledStream(port) {
  let answer = null;
  return new ReadableStream(
    {
      start(controller) {
        port.onmessage = (event) => {
          const message = event.data || {};
          if (message.type === 'chunk') controller.enqueue(new Uint8Array(message.chunk));
          else if (message.type === 'end') controller.close();
          else if (message.type === 'error') controller.error(new Error(String(message.message)));
          else return;
          const settle = answer;
          answer = null;
          if (settle) settle();
        };
      },
      pull() {
        return new Promise((resolve) => {
          answer = resolve;
          port.postMessage({ type: 'pull' });
        });
      },
      cancel() {
        port.postMessage({ type: 'cancel' });
      },
    },
    { highWaterMark: 1 },
  );
}

/** `attachment` with the name as RFC 6266 says: an ASCII fallback and the exact UTF-8 name. */
function contentDisposition(filename) {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_') || 'download';
  const exact = encodeURIComponent(filename).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}
