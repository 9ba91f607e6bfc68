import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { clamdVersion } from '../scanning/clamd.js';

/**
 * A real clamd (Debian's clamav-daemon) for tests, on a loopback port, with a signature database
 * of its own: one signature for the EICAR test file, written here from its MD5 and length, so that
 * nothing is downloaded and startup takes seconds. `stop` and `start` let a test take it away mid-scan.
 */

/** The EICAR anti-virus test file: harmless, and detected by every scanner. Assembled so that this source file is not itself flagged. */
export const EICAR = Buffer.from(['X5O!P%@AP[4\\PZX54(P^)7CC)7}$', 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!', '$H+H*'].join(''), 'latin1');

/** What clamd calls it with the signature below (unofficial databases get the suffix). */
export const EICAR_SIGNATURE = 'Test.EICAR.HDB.UNOFFICIAL';

export function clamdBinary(): string | null {
  for (const candidate of [process.env.CLAMD_PATH, '/usr/sbin/clamd', '/usr/bin/clamd']) {
    if (candidate && fs.existsSync(candidate)) return candidate;
  }
  return null;
}

export interface TestClamd {
  /** `tcp://127.0.0.1:<port>`, for CLAMD_URL. */
  url: string;
  port: number;
  /** Freezes clamd (SIGSTOP): connections are still accepted by the kernel, nothing is answered. */
  pause(): void;
  /** Kills clamd at once (SIGKILL): a scanner that vanishes mid-scan. */
  kill(): Promise<void>;
  /** Starts it again on the same port and waits until it answers. */
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  close(): Promise<void>;
  /** The same, synchronously: for a process's `exit` handler. */
  killNow(): void;
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function startTestClamd(options: { streamMaxLength?: string } = {}): Promise<TestClamd> {
  const binary = clamdBinary();
  if (!binary) throw new Error('clamd is not installed: `apt-get install clamav-daemon` (npm test installs it as root)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-clamd-'));
  const database = path.join(dir, 'db');
  fs.mkdirSync(database);
  const md5 = createHash('md5').update(EICAR).digest('hex');
  fs.writeFileSync(path.join(database, 'test.hdb'), `${md5}:${EICAR.length}:Test.EICAR.HDB\n`);
  const port = await freePort();
  const config = path.join(dir, 'clamd.conf');
  fs.writeFileSync(
    config,
    [
      'Foreground yes',
      `DatabaseDirectory ${database}`,
      `LogFile ${path.join(dir, 'clamd.log')}`,
      `TCPSocket ${port}`,
      'TCPAddr 127.0.0.1',
      `StreamMaxLength ${options.streamMaxLength ?? '300M'}`,
      'MaxThreads 4',
      'OfficialDatabaseOnly no',
      'Bytecode no',
      // Checks its database for changes now and then; nothing changes here.
      'SelfCheck 3600',
      ...(process.getuid?.() === 0 ? ['User root'] : []),
      '',
    ].join('\n'),
  );

  let child: ChildProcess | null = null;
  const address = { host: '127.0.0.1', port };
  const start = async () => {
    const started = spawn(binary, ['-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = started;
    let stderr = '';
    started.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (started.exitCode !== null) throw new Error(`clamd exited with ${started.exitCode}: ${stderr}${readLog(dir)}`);
      try {
        await clamdVersion(address, 1000);
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`clamd did not answer within a minute: ${stderr}${readLog(dir)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  const kill = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `tcp://127.0.0.1:${port}`,
    port,
    pause: () => void (child as ChildProcess | null)?.kill('SIGSTOP'),
    kill,
    start,
    async close() {
      await kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
    killNow() {
      (child as ChildProcess | null)?.kill('SIGKILL');
      child = null;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function readLog(dir: string): string {
  try {
    return `\n${fs.readFileSync(path.join(dir, 'clamd.log'), 'utf8').slice(-2000)}`;
  } catch {
    return '';
  }
}
