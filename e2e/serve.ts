import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Runs the real server for the end-to-end suite on a throw-away data directory. */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-e2e-'));
process.env.DATA_DIR = dataDir;
delete process.env.DATABASE_URL;
process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
await import('../src/server/main.js');
