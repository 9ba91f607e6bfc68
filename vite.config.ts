import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { appRoutesManifest } from './scripts/app-routes-manifest.js';
import { precompress } from './scripts/precompress.js';

/** Uppy formats sizes with this package in binary units; the product shows decimal ones everywhere. */
export const uploaderSizeAlias = { '@transloadit/prettier-bytes': fileURLToPath(new URL('./src/app/lib/prettier-bytes.ts', import.meta.url)) };

// The dev server proxies everything that is not the SPA to the API server started by `npm run dev`.
const apiTarget = process.env.DEV_API_URL ?? 'http://127.0.0.1:8080';

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
  ],
  resolve: { alias: uploaderSizeAlias },
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    // Source maps would publish the app's source as written; none are built.
    sourcemap: false,
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
