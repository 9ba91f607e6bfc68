import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MediaKind } from '../../contract/media-types.js';
import { runBoundedTool, ToolFailed, type ToolLimits } from './bounded-tool.js';

/**
 * Posters of videos, waveforms of audio and first pages of PDFs, as PNGs of at most `maxSide` pixels, read through a
 * URL with Range (loopback-bytes.ts) by a tool in a process of its own (bounded-tool.ts). Why these tools is in
 * docs/previews.md: ffmpeg decodes every format a browser plays; pdf.js is the renderer of the viewer itself.
 */

const FFMPEG_LIMITS: ToolLimits = { timeoutMs: 60_000, memoryBytes: 768 * 1024 * 1024, maxOutputBytes: 8 * 1024 * 1024 };
const PDF_LIMITS: ToolLimits = { timeoutMs: 30_000, memoryBytes: 512 * 1024 * 1024, maxOutputBytes: 8 * 1024 * 1024 };

/**
 * The demuxers ffmpeg may use, per kind. Without this list a file named `.mp4` could be an HLS playlist or a concat
 * script that makes ffmpeg open other URLs or local files; with it (and only `http` and `tcp` to loopback allowed as
 * protocols), the tool reads this one file and nothing else.
 */
const DEMUXERS: Record<'video' | 'audio', string> = {
  video: 'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,ogg',
  audio: 'mp3,aac,mov,mp4,m4a,3gp,wav,flac,ogg,matroska,webm',
};

let ffmpeg: string | undefined;

/**
 * ffmpeg on the PATH when there is one (a distribution's build, kept patched by its package manager), else the
 * static build `@ffmpeg-installer/ffmpeg` brings with `npm install`, so that previews work with nothing installed.
 */
export function ffmpegCommand(): string {
  if (ffmpeg) return ffmpeg;
  for (const directory of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(directory, 'ffmpeg');
    try {
      accessSync(candidate, constants.X_OK);
      return (ffmpeg = candidate);
    } catch {
      // Not here.
    }
  }
  return (ffmpeg = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path);
}

function ffmpegInput(kind: 'video' | 'audio', url: string, seekSeconds?: number): string[] {
  return [
    '-nostdin', '-hide_banner', '-loglevel', 'error',
    '-protocol_whitelist', 'http,tcp', '-format_whitelist', DEMUXERS[kind],
    // Threads each hold frames: one keeps memory predictable, and a preview is not urgent.
    '-threads', '1',
    ...(seekSeconds === undefined ? [] : ['-ss', String(seekSeconds)]),
    '-i', url,
  ];
}

const pngOut = ['-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1'];

/** A frame a second in (past a fade from black), or the first frame of a shorter video. */
async function videoPoster(url: string, maxSide: number): Promise<Buffer> {
  // Fitted inside the square, never enlarged.
  const fit = `scale='min(${maxSide},iw)':'min(${maxSide},ih)':force_original_aspect_ratio=decrease`;
  const frameAt = (seconds: number) => runBoundedTool(ffmpegCommand(), [...ffmpegInput('video', url, seconds), '-an', '-sn', '-dn', '-vf', fit, ...pngOut], FFMPEG_LIMITS);
  try {
    return await frameAt(1);
  } catch (err) {
    // Shorter than a second: nothing was written. Anything else fails again, at once, the same way.
    if (err instanceof ToolFailed && err.message.includes('wrote nothing')) return frameAt(0);
    throw err;
  }
}

/**
 * The whole file's loudness over time. Decoded at 2 kHz in one channel, which is all a picture of this width can
 * show, so an hour of audio holds about 14 MB while it is drawn.
 */
function audioWaveform(url: string, maxSide: number): Promise<Buffer> {
  const height = Math.round(maxSide / 4);
  const draw = `aresample=2000,aformat=channel_layouts=mono,showwavespic=s=${maxSide}x${height}:scale=sqrt:colors=0x6366f1`;
  return runBoundedTool(ffmpegCommand(), [...ffmpegInput('audio', url), '-filter_complex', draw, ...pngOut], FFMPEG_LIMITS);
}

const pdfRenderer = fileURLToPath(new URL('./pdf-first-page.mjs', import.meta.url));

function pdfFirstPage(url: string, size: number, maxSide: number): Promise<Buffer> {
  // The heap limit stops a runaway parser early; `ulimit -d` also stops what it allocates outside the heap.
  return runBoundedTool(process.execPath, ['--max-old-space-size=192', pdfRenderer, url, String(size), String(maxSide)], PDF_LIMITS);
}

/** The preview of a video, an audio file or a PDF whose bytes `url` serves with Range, as a PNG. Throws `ToolFailed`. */
export function renderMediaPreview(kind: MediaKind, url: string, size: number, maxSide: number): Promise<Buffer> {
  if (kind === 'video') return videoPoster(url, maxSide);
  if (kind === 'audio') return audioWaveform(url, maxSide);
  return pdfFirstPage(url, size, maxSide);
}
