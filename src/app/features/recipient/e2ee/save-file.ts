import { saveThroughServiceWorker, serviceWorkerSaving } from './service-worker-save';

/**
 * Where a decrypted file goes, chosen once per click, in this order:
 * 1. the File System Access API (`showSaveFilePicker`, Chromium): the stream is written straight into the chosen file;
 * 2. our service worker (`/e2ee-download-sw.js`, Firefox and Safari 15.4+): the stream becomes a download response;
 * 3. neither (e.g. private windows that have no service workers): the file is decrypted into memory, so only files
 *    up to MEMORY_SAVE_LIMIT are offered.
 * Ways 1 and 2 never hold a file in memory. In every way, an error mid-stream aborts the save: the chosen file is
 * discarded (its writes are kept aside until closed), the browser fails the download (it was promised an exact
 * length), or no Blob is made.
 */

/** The largest file (or zip) decrypted in memory where a browser can save neither way: 200 MB. */
export const MEMORY_SAVE_LIMIT = 200_000_000;

export interface SaveRequest {
  filename: string;
  /** Exact bytes the stream will give. */
  size: number;
  /** The MIME type the file is saved as (the in-memory way only). */
  type: string;
}

/** A place chosen to save one file; `write` streams it there and settles when it is saved or discarded. */
export interface SaveTarget {
  write(stream: ReadableStream<Uint8Array>): Promise<void>;
}

/** The visitor closed the save dialog: not an error to show. */
export class SaveCancelled extends Error {
  override readonly name = 'SaveCancelled';
}

/** A file too big to decrypt in memory, in a browser that can save it no other way. */
export class TooBigForMemory extends Error {
  override readonly name = 'TooBigForMemory';
}

interface WritableFile {
  write(data: Uint8Array): Promise<void>;
}
interface FileHandle {
  createWritable(): Promise<WritableStream<Uint8Array> & WritableFile>;
  remove?: () => Promise<void>;
}
type SaveFilePicker = (options: { suggestedName: string }) => Promise<FileHandle>;

function filePicker(): SaveFilePicker | null {
  const picker = (window as unknown as { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker;
  return typeof picker === 'function' ? picker.bind(window) : null;
}

export type SaveWay = 'file-picker' | 'service-worker' | 'memory';

export function saveWay(): SaveWay {
  if (filePicker()) return 'file-picker';
  if (serviceWorkerSaving()) return 'service-worker';
  return 'memory';
}

/**
 * Chooses where to save. Call it first in a click handler, before anything awaits: the save dialog needs the
 * click's user activation.
 */
export async function chooseSaveTarget(request: SaveRequest): Promise<SaveTarget> {
  const picker = filePicker();
  if (picker) {
    let handle: FileHandle;
    try {
      handle = await picker({ suggestedName: request.filename });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw new SaveCancelled('The save was cancelled');
      throw error;
    }
    return {
      async write(stream) {
        const writable = await handle.createWritable();
        try {
          // On an error, pipeTo aborts the writable: Chromium drops what was written and leaves the file as it was.
          await stream.pipeTo(writable);
        } catch (error) {
          // The picker made the (empty) file; take it away too where the browser allows.
          await handle.remove?.().catch(() => {});
          throw error;
        }
      },
    };
  }
  if (serviceWorkerSaving()) return { write: (stream) => saveThroughServiceWorker(stream, request) };
  if (request.size > MEMORY_SAVE_LIMIT) throw new TooBigForMemory(`${request.filename} is too big to save in this browser`);
  return { write: (stream) => saveInMemory(stream, request) };
}

async function saveInMemory(stream: ReadableStream<Uint8Array>, request: SaveRequest): Promise<void> {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(new Uint8Array(value));
  }
  const url = URL.createObjectURL(new Blob(parts, { type: request.type || 'application/octet-stream' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = request.filename;
  link.rel = 'noreferrer';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it started; a minute is ample.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
