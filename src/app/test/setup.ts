import '../lib/zod-config';
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { forgetAccessToken } from '../lib/v1-client';
import { noteOwnLocale, startLocale } from '../lib/intl';
import { lockVault } from '../features/vault/vault-lock';

// A worker runs many files one after another in the same module graph (vitest.config.ts, isolate: false): what
// a test leaves in the app's module-level state (the page's language, a signed-in person's own, an unlocked
// vault, the dashboard's token) is put back after each, so no file depends on the one before it.
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  forgetAccessToken();
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.documentElement.className = '';
  document.documentElement.lang = 'en';
  document.documentElement.dir = 'ltr';
  noteOwnLocale(null);
  lockVault();
  await startLocale();
});
