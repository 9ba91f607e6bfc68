import os from 'node:os';
import path from 'node:path';

/** Where the e2e server on `port` keeps its data. */
export const e2eDataDir = (port: number) => path.join(os.tmpdir(), `parcel-e2e-${port}`);
