import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createDeflate } from 'node:zlib';

/**
 * Real media made by the tests (server and end-to-end): videos and audio by Debian's ffmpeg (scripts/test.sh
 * installs it), PDFs written by hand, and the hostile files the preview tools must survive.
 */

const run = promisify(execFile);

/** Runs ffmpeg with `args` (the output `out.<ext>` last) in a scratch directory and returns the file it wrote. */
export async function ffmpegMade(extension: string, ...args: string[]): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-media-'));
  try {
    const out = path.join(dir, `out.${extension}`);
    await run('ffmpeg', ['-loglevel', 'error', '-y', ...args, out]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** `seconds` of ffmpeg's test pattern (a counter that changes every frame) at `size`, in H.264 (MP4) or VP8 (WebM). */
export const testVideo = (extension: 'mp4' | 'webm', seconds = 3, size = '320x240') =>
  ffmpegMade(extension, '-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=${size}:rate=10`, ...(extension === 'mp4' ? ['-c:v', 'libx264', '-pix_fmt', 'yuv420p'] : ['-c:v', 'libvpx', '-deadline', 'realtime']));

/** A tone whose loudness swells and fades, so its waveform is a shape, not a bar. */
export const testTone = (seconds = 3) =>
  ffmpegMade('mp3', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-af', `volume='sin(PI*t/${seconds})':eval=frame`, '-c:a', 'libmp3lame', '-b:a', '64k');

/** A PDF of `pages`, each with one line of text, written by hand (offsets and all); `contents` replaces a page's stream. */
export function pdfOf(pages: string[], contents: (Buffer | null)[] = []): Buffer {
  const objects: Buffer[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  objects[1] = Buffer.from('<< /Type /Catalog /Pages 2 0 R >>');
  objects[2] = Buffer.from(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`);
  objects[3] = Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  pages.forEach((text, i) => {
    const id = pageIds[i]!;
    objects[id] = Buffer.from(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${id + 1} 0 R >>`);
    const own = contents[i];
    const stream = own ?? Buffer.from(`BT /F1 36 Tf 72 700 Td (${text}) Tj ET 0.2 0.4 0.9 rg 72 100 468 400 re f`);
    const filter = own ? ' /Filter /FlateDecode' : '';
    objects[id + 1] = Buffer.concat([Buffer.from(`<< /Length ${stream.length}${filter} >>\nstream\n`), stream, Buffer.from('\nendstream')]);
  });
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = length;
    const part = Buffer.concat([Buffer.from(`${id} 0 obj\n`), objects[id]!, Buffer.from('\nendobj\n')]);
    parts.push(part);
    length += part.length;
  }
  const xref = length;
  parts.push(Buffer.from(`xref\n0 ${objects.length}\n0000000000 65535 f \n${offsets.slice(1).map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`));
  parts.push(Buffer.from(`trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** `megabytes` of spaces deflated, about a thousandth of that on disk: a decompression bomb for a page's contents. */
export async function deflatedSpaces(megabytes: number): Promise<Buffer> {
  // Level 1: uniform input compresses as well as at 9, several times faster.
  const deflate = createDeflate({ level: 1 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const block = Buffer.alloc(1024 * 1024, 0x20);
  for (let i = 0; i < megabytes; i++) if (!deflate.write(block)) await new Promise((resolve) => deflate.once('drain', resolve));
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/** An EBML element: its id's bytes, an eight-byte size and the data (Matroska allows sizes longer than needed). */
function ebml(id: number, data: Buffer | Buffer[]): Buffer {
  const body = Buffer.isBuffer(data) ? data : Buffer.concat(data);
  const idBytes = Buffer.from(id.toString(16).padStart(2, '0').replace(/^(.)((..)*)$/, '0$1$2'), 'hex');
  const size = Buffer.alloc(8);
  size.writeBigUInt64BE(BigInt(body.length) | (1n << 56n));
  return Buffer.concat([idBytes, size, body]);
}
const uint = (n: number) => Buffer.from(n.toString(16).padStart(Math.ceil(n.toString(16).length / 2) * 2, '0'), 'hex');

/**
 * A Matroska video whose one uncompressed (I420) track declares `width` × `height` pixels, with one grey frame of
 * that size, or of 4 KiB at most: a well-formed file when small, and when huge, what a decoder that trusts the
 * header would allocate gigabytes for.
 */
export function matroskaDeclaring(width: number, height: number): Buffer {
  const header = ebml(0x1a45dfa3, [ebml(0x4286, uint(1)), ebml(0x42f7, uint(1)), ebml(0x42f2, uint(4)), ebml(0x42f3, uint(8)), ebml(0x4282, Buffer.from('matroska')), ebml(0x4287, uint(4)), ebml(0x4285, uint(2))]);
  const info = ebml(0x1549a966, [ebml(0x2ad7b1, uint(1_000_000)), ebml(0x4d80, Buffer.from('test')), ebml(0x5741, Buffer.from('test'))]);
  const video = ebml(0xe0, [ebml(0xb0, uint(width)), ebml(0xba, uint(height)), ebml(0x2eb524, Buffer.from('I420'))]);
  const track = ebml(0xae, [ebml(0xd7, uint(1)), ebml(0x73c5, uint(1)), ebml(0x83, uint(1)), ebml(0x86, Buffer.from('V_UNCOMPRESSED')), video]);
  const block = Buffer.concat([Buffer.from([0x81, 0x00, 0x00, 0x80]), Buffer.alloc(Math.min((width * height * 3) / 2, 4096), 0x7f)]);
  const cluster = ebml(0x1f43b675, [ebml(0xe7, uint(0)), ebml(0xa3, block)]);
  return Buffer.concat([header, ebml(0x18538067, [info, ebml(0x1654ae6b, track), cluster])]);
}
