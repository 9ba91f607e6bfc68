import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { uploaderSizeAlias } from './vite.config';

/**
 * How many server test files run at once. Each file mostly waits (on its PostgreSQL database, its
 * server's sockets, S3, child processes), so more files than cores keep both cores busy; Vitest's
 * default on two cores is a single file at a time. Measured in docs/testing.md.
 */
const serverWorkers = Number(process.env.TEST_SERVER_WORKERS ?? 3);

export default defineConfig({
  test: {
    tags: [
      {
        name: 'scale-out',
        description:
          'Behaviour that depends on the parts the scale-out configuration swaps (S3 storage, Redis rate limits, external PostgreSQL, several instances, jobs): CI runs these files a second time on that configuration.',
      },
    ],
    projects: [
      {
        plugins: [react()],
        resolve: { alias: uploaderSizeAlias },
        test: {
          name: 'app',
          // Uppy is run through Vite (not loaded by Node as is), so it gets the same size formatter as in the browser.
          server: { deps: { inline: [/@uppy\//] } },
          include: ['src/app/**/*.test.{ts,tsx}', 'src/crypto/**/*.test.ts', 'src/contract/**/*.test.ts', 'src/locales/**/*.test.ts'],
          environment: 'happy-dom',
          setupFiles: ['src/app/test/setup.ts'],
          // Projects with their own worker counts run one after the other (Vitest groups them by this order).
          sequence: { groupOrder: 0 },
          maxWorkers: 2,
          // A worker imports React, the router, react-intl and the app's modules once for all its files, not once
          // per file: isolated, the imports and set-up were 260 s of a 346 s run, and 30 s without (docs/testing.md).
          // Each file still gets a fresh DOM; the app's module-level state (the page's language, the vault's lock,
          // the token) is put back by src/app/test/setup.ts after every test.
          isolate: false,
          // Rendering a long list in happy-dom takes seconds of CPU when both cores are busy; 5 s (the default) was not enough.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['src/server/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['src/server/test/global-setup.ts'],
          // Memory tests measure what is live, not garbage a collection has not reached yet.
          execArgv: ['--expose-gc'],
          // Each file gets its own database (cloned from one migrated template) and server.
          sequence: { groupOrder: 1 },
          maxWorkers: serverWorkers,
          // A worker imports the server's modules once for all the files it runs, not once per file
          // (importing them was a third of the project's time). Files share no state through them:
          // each starts its own server, database, clock and storage.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
