import { spawn } from 'node:child_process';

export interface ToolLimits {
  /** Killed past this, whatever it is doing. */
  timeoutMs: number;
  /** Memory the process may allocate (`ulimit -d`: its heap and private mappings, not the address space it only reserves, which Node and WebAssembly reserve by gigabytes). */
  memoryBytes?: number;
  /** A preview is small: output past this is refused and the tool killed. */
  maxOutputBytes: number;
}

/** Why a tool gave no preview: the message is for the operator's log, never shown to a person. */
export class ToolFailed extends Error {}

/**
 * Runs a preview tool at low priority in a process group of its own, with a time limit, a memory limit and
 * a cap on what it writes, and returns its standard output once it exits cleanly. A hostile file (a decompression
 * bomb, a huge frame, a truncated stream) makes the tool fail, or be killed at a limit; either way this throws
 * `ToolFailed`, and nothing else is affected.
 */
export function runBoundedTool(command: string, args: string[], limits: ToolLimits): Promise<Buffer> {
  // `sh` applies the limit to itself, then becomes the tool (exec): no shell parses the arguments.
  const memoryKb = limits.memoryBytes === undefined ? 'unlimited' : String(Math.floor(limits.memoryBytes / 1024));
  const child = spawn('/bin/sh', ['-c', 'ulimit -d "$1" && shift && exec nice -n 10 "$@"', 'sh', memoryKb, command, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let stderr = '';
    let failure: string | null = null;
    const kill = (reason: string) => {
      failure ??= reason;
      try {
        // The group: a tool's own helpers (ffmpeg's threads are threads, but pdf.js may start a process) go too.
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // It exited already.
      }
    };
    const timer = setTimeout(() => kill(`took longer than ${limits.timeoutMs} ms`), limits.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > limits.maxOutputBytes) kill(`wrote more than ${limits.maxOutputBytes} bytes`);
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      // The first lines say why; the rest is repetition.
      if (stderr.length < 2000) stderr += chunk.toString('utf8');
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new ToolFailed(`could not start ${command}: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (failure) reject(new ToolFailed(`${command} ${failure}`));
      else if (code !== 0) reject(new ToolFailed(`${command} exited with ${signal ?? code}: ${stderr.trim().slice(0, 500)}`));
      else if (length === 0) reject(new ToolFailed(`${command} wrote nothing: ${stderr.trim().slice(0, 500)}`));
      else resolve(Buffer.concat(chunks));
    });
  });
}
