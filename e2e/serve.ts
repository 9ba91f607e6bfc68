import fs from 'node:fs';
import path from 'node:path';
import { e2eDataDir } from './data-dir.js';

/**
 * Runs the real server for the end-to-end suite on a fresh data directory named after its port,
 * so a test can point the operator CLI at the same instance.
 */
const dataDir = e2eDataDir(Number(process.env.PORT));
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(path.dirname(dataDir), { recursive: true });
process.env.DATA_DIR = dataDir;
delete process.env.DATABASE_URL;
process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
await import('../src/server/main.js');
