import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const redocly = fileURLToPath(new URL('../../../node_modules/.bin/redocly', import.meta.url));

/** Redocly's lint with its recommended rules, of an OpenAPI document's text: its exit code and what it printed. */
export async function lintOpenApi(document: string): Promise<{ code: number; output: string }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parcel-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    await fs.writeFile(file, document);
    return await promisify(execFile)(redocly, ['lint', file, '--format=stylish', '--extends=recommended'], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      timeout: 60_000,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (err: { code?: number; stdout?: string; stderr?: string }) => ({ code: err.code ?? -1, output: `${err.stdout}${err.stderr}` }),
    );
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
