import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { uploaderSizeAlias } from './vite.config';

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        resolve: { alias: uploaderSizeAlias },
        test: {
          name: 'app',
          // Uppy is run through Vite (not loaded by Node as is), so it gets the same size formatter as in the browser.
          server: { deps: { inline: [/@uppy\//] } },
          include: ['src/app/**/*.test.{ts,tsx}', 'src/crypto/**/*.test.ts', 'src/contract/**/*.test.ts'],
          environment: 'happy-dom',
          setupFiles: ['src/app/test/setup.ts'],
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
          // Each file gets its own database and server; files run in parallel on the two cores.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
