import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('installing the project', () => {
  it('prints no engine warning on this Node: every locked dependency declares an engine that includes it', () => {
    // npm checks every package of the lock file against the running Node when it plans a fresh
    // install; a dry run in an empty copy does exactly that, from the cache, without writing anything.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-engines-'));
    try {
      for (const file of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(root, file), path.join(dir, file));
      const run = spawnSync('npm', ['install', '--dry-run', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/added \d+ packages/);
      const warnings = run.stderr.split('\n').filter((line) => line.includes('EBADENGINE'));
      expect(warnings, run.stderr).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
