import '../lib/zod-config';
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { forgetAccessToken } from '../lib/v1-client';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  forgetAccessToken();
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.documentElement.className = '';
});
