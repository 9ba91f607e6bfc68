import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests against the real server (embedded PostgreSQL, built app) in Debian's Chromium.
 * The server runs with a fresh data directory on its own port, so it never touches ./data.
 */
const port = Number(process.env.E2E_PORT ?? 18_080);
const baseURL = `http://127.0.0.1:${port}`;
/** A second server whose upload tokens live 20 seconds, so renewal happens mid-upload. */
export const shortTokenPort = port + 1;
/** A third server where sign-up is by invitation (SIGNUP=invite), fresh so its first account is the operator's. */
export const inviteOnlyPort = port + 2;
/** A fourth server that scans every file with a real clamd (started by e2e/serve.ts with an EICAR signature of its own). */
export const scanningPort = port + 3;
/**
 * A fifth server at http://localhost (its PUBLIC_URL): a passkey's relying party is a domain, never an
 * IP address, so WebAuthn works there and not on 127.0.0.1 (e2e/passkeys.spec.ts); single sign-on is
 * tested there too (e2e/single-sign-on.spec.ts).
 */
export const passkeyPort = port + 4;

/** One real server on its own port and fresh data directory, with these settings on top of the defaults. */
function e2eServer(serverPort: number, env: Record<string, string>) {
  const url = `http://127.0.0.1:${serverPort}`;
  return {
    command: 'node --import tsx e2e/serve.ts',
    url: `${url}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    // SIGTERM lets the server stop its own PostgreSQL, which lives in its own process group and
    // would outlive a SIGKILL.
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 20_000 },
    // Every browser of the suite comes from 127.0.0.1, as one visitor: the anonymous limit is one a
    // single person could reach, so it is raised here (the limits are tested in the server suite).
    env: { PORT: String(serverPort), HOST: '127.0.0.1', PUBLIC_URL: url, LOG_LEVEL: 'warn', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '6000', ...env },
  };
}

const screenshotsOnRequest = process.env.UPDATE_SCREENSHOTS ? [] : ['**/readme-screenshots.spec.ts'];
const firstVisit = '**/api-keys.spec.ts';

export default defineConfig({
  testDir: './e2e',
  // The README's screenshots are made on request (`npm run screenshots`), not as part of the suite.
  testIgnore: screenshotsOnRequest,
  // The first visit to the main server (api-keys.spec.ts) finds no workspace yet and makes the
  // operator's, on the paid plan: it runs alone, before the other files run side by side.
  projects: [
    { name: 'first visit', testMatch: firstVisit },
    { name: 'chromium', testIgnore: [...screenshotsOnRequest, firstVisit], dependencies: ['first visit'] },
  ],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two spec files at a time (a file's tests stay in order, in one worker): a test spends most of
  // its time waiting on the server and the browser, so two keep both cores busy (docs/testing.md).
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  outputDir: path.join(os.tmpdir(), `parcel-e2e-results-${port}`),
  use: {
    baseURL,
    // A trace is recorded on a test's retry, not on its first run: recording every test's screencast
    // and snapshots cost about a quarter of the suite's CPU (docs/testing.md), and a test that fails
    // in CI is retried with the trace on, so a failure still comes with its trace (locally, where nothing
    // is retried, run the failing file again with `--trace on`).
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: [
    // Paid transfers may expire seconds from now here, so a test can watch one expire in real time.
    e2eServer(port, { PAID_TRANSFER_MIN_EXPIRY_SECONDS: '3', WEBHOOKS_ALLOW_INSECURE: '1' }),
    e2eServer(shortTokenPort, { UPLOAD_TOKEN_TTL_SECONDS: '20' }),
    e2eServer(inviteOnlyPort, { SIGNUP: 'invite' }),
    e2eServer(scanningPort, { E2E_CLAMD: '1' }),
    // Also the single sign-on server: its test identity provider answers over plain http on loopback.
    e2eServer(passkeyPort, { PUBLIC_URL: `http://localhost:${passkeyPort}`, SSO_ALLOW_INSECURE: '1' }),
  ],
});
