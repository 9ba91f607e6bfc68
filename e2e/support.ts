import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { e2eDataDir } from './data-dir';

/** Signs a new owner up through the real sign-up page and lands on the dashboard. */
export async function signUp(page: Page, workspaceName = 'Acme Studio') {
  const email = `owner-${Date.now()}-${randomBytes(3).toString('hex')}@example.test`;
  const password = 'correct horse battery';
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Workspace name').fill(workspaceName);
  await page.getByRole('button', { name: /Create (workspace|account)/ }).click();
  await expect(page.getByText(workspaceName).first()).toBeVisible();
  return { email, password };
}

/** Real files on disk for the file chooser: random bytes, so a wrong byte anywhere shows. */
export function makeFiles(spec: Record<string, number>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-e2e-files-'));
  const files: Record<string, { path: string; bytes: Buffer }> = {};
  for (const [name, size] of Object.entries(spec)) {
    const file = path.join(dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const bytes = randomBytes(size);
    fs.writeFileSync(file, bytes);
    files[name] = { path: file, bytes };
  }
  return { dir, files, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Puts the signed-in owner's workspace on `plan` with the operator CLI, as on a real server:
 * pointed at the data directory of the e2e server the page is on. A test that needs the free plan
 * says so too, since the first workspace of a server (whichever test signs up first) starts paid.
 */
export async function setWorkspacePlan(page: Page, plan: 'free' | 'paid') {
  const session = (await (await page.request.get('/api/dashboard/session')).json()) as { workspace: { id: string } };
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: e2eDataDir(Number(new URL(page.url()).port)) };
  delete env.DATABASE_URL;
  execFileSync(
    process.execPath,
    ['--import', 'tsx', 'src/server/admin/cli.ts', 'plan', 'set', '--workspace', session.workspace.id, '--plan', plan, '--json'],
    {
      env,
    },
  );
}

export const makeWorkspacePaid = (page: Page) => setWorkspacePlan(page, 'paid');

/**
 * Screenshots of the page on a desktop and a phone, in the light and the dark theme, under the system's temp
 * directory as `<name>-<viewport>-<theme>.png`, when `flag` is set in the environment (for looking at a page,
 * not for asserting anything).
 */
export async function screenshotsInBothThemes(page: Page, name: string, flag: string) {
  if (!process.env[flag]) return;
  for (const [viewport, width, height] of [['desktop', 1280, 900], ['phone', 390, 844]] as const) {
    for (const theme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height });
      await page.evaluate((t) => document.documentElement.classList.toggle('dark', t === 'dark'), theme);
      // Let colour transitions finish.
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${os.tmpdir()}/${name}-${viewport}-${theme}.png`, fullPage: true });
    }
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A picture of the page for the README, as docs/screenshots/<name>.png: only with `npm run screenshots` (UPDATE_SCREENSHOTS). */
export async function readmePicture(page: Page, name: string) {
  if (process.env.UPDATE_SCREENSHOTS) await page.screenshot({ path: `docs/screenshots/${name}.png` });
}
