import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { appRoutesManifest } from './scripts/app-routes-manifest.js';
import { precompress } from './scripts/precompress.js';

/** Uppy formats sizes with this package in binary units; the product shows decimal ones everywhere. */
export const uploaderSizeAlias = { '@transloadit/prettier-bytes': fileURLToPath(new URL('./src/app/lib/prettier-bytes.ts', import.meta.url)) };

// The dev server proxies everything that is not the SPA to the API server started by `npm run dev`.
const apiTarget = process.env.DEV_API_URL ?? 'http://127.0.0.1:8080';

/**
 * A feature's index.ts only re-exports what other features use (eslint.config.js keeps it so). Declared
 * free of side effects, an import through it loads only the modules of the names taken, as a direct
 * import of them would: the requests pages' loaders (in the first load) take two collection queries
 * through collections/index.ts, which also re-exports the file browser (and, through recipient/index.ts,
 * the vault's decryption and zip code): without this the first load grew from 107 to 150 KB.
 */
function featureIndexesWithoutSideEffects(): Plugin {
  return {
    name: 'feature-indexes-without-side-effects',
    transform: {
      filter: { id: /\/src\/app\/features\/[^/]+\/index\.ts$/ },
      handler: (code) => ({ code, map: null, moduleSideEffects: false }),
    },
  };
}

/**
 * The server render is built beside the app, into `ssr` next to its outDir (dist/ssr beside
 * dist/app; a build into another directory, as the benchmarks make, gets its own), where the
 * server looks for it (src/server/http/app.ts).
 */
function serverRenderBesideApp(): Plugin {
  let appOutDir = 'dist/app';
  return {
    name: 'server-render-beside-app',
    config(config) {
      appOutDir = config.build?.outDir ?? appOutDir;
    },
    configEnvironment(name) {
      if (name === 'ssr') return { build: { outDir: path.join(path.dirname(appOutDir), 'ssr') } };
    },
  };
}

export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      routesDirectory: './src/app/routes',
      generatedRouteTree: './src/app/routeTree.gen.ts',
      autoCodeSplitting: true,
    }),
    react(),
    tailwindcss(),
    appRoutesManifest('./src/app/routeTree.gen.ts'),
    precompress(),
    serverRenderBesideApp(),
    featureIndexesWithoutSideEffects(),
  ],
  resolve: { alias: uploaderSizeAlias },
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    // Source maps would publish the app's source as written; none are built.
    sourcemap: false,
  },
  environments: {
    // The server render of the public pages (src/app/entry-server.tsx), loaded by the Node server
    // (src/server/public/server-render.ts). Self-contained: React's production build and the app's
    // code in one module tree, so the server needs nothing of Vite to run it.
    ssr: {
      resolve: { noExternal: true },
      build: {
        emptyOutDir: true,
        copyPublicDir: false,
        sourcemap: false,
        // Minified: the server's idle RSS grows by about 23 MB with it, against about 114 MB for the
        // same bundle unminified (measured with bench/server-process.ts; tsx's loader keeps much of it).
        minify: true,
        rollupOptions: { input: { 'entry-server': './src/app/entry-server.tsx' } },
      },
    },
  },
  // `vite build` builds both: the browser's app, then the server render.
  builder: {
    async buildApp(builder) {
      await builder.build(builder.environments.client!);
      await builder.build(builder.environments.ssr!);
    },
  },
  server: {
    proxy: {
      '/api': apiTarget,
      '/healthz': apiTarget,
      '/files': apiTarget,
      '/dl': apiTarget,
      '/mcp': apiTarget,
      '/.well-known': apiTarget,
    },
  },
});
