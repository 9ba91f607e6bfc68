import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Download, type Locator, type Page } from '@playwright/test';

/** Uppy Dashboard's hidden inputs: one for files, one (webkitdirectory) for folders. */
const fileInput = (page: Page) => page.locator('input.uppy-Dashboard-input[name="files[]"]:not([webkitdirectory])');
const folderInput = (page: Page) => page.locator('input.uppy-Dashboard-input[name="files[]"][webkitdirectory]');

/** The Dashboard shows its "add files" panel only while empty, or after "Add more". */
async function showAddPanel(page: Page) {
  const region = page.getByRole('region', { name: 'Files to send' });
  // Uppy mounts after the page renders: only then does "no file input" mean "files are listed".
  await expect(region.locator('.uppy-Dashboard-inner')).toBeVisible();
  if ((await fileInput(page).count()) === 0) await region.getByRole('button', { name: /add more/i }).click();
  await expect(fileInput(page)).toHaveCount(1);
}

/** Adds files through the Dashboard's file input, as the file chooser would. */
export async function addFiles(page: Page, paths: string[]) {
  await showAddPanel(page);
  await fileInput(page).setInputFiles(paths);
}

/** Adds a whole folder through the Dashboard's folder input (webkitdirectory). */
export async function addFolder(page: Page, directory: string) {
  await showAddPanel(page);
  await folderInput(page).setInputFiles(directory);
}

/** The details form's Send button: enabled once there are files (it waits for their uploads by itself). */
export function sendButton(page: Page): Locator {
  return page.getByRole('form', { name: 'Transfer details' }).getByRole('button', { name: 'Send' });
}

/** The line under the uploader says every file is up. */
export async function expectUploadsFinished(page: Page, timeout = 60_000) {
  await expect(page.getByTestId('upload-status')).toHaveText(/(The file is|All \d+ files are) uploaded/, { timeout });
}

/** Runs axe and fails on serious or critical violations, listing them. */
export async function expectNoSeriousA11yViolations(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const describe = bad.map(
    (v) => `[${v.impact}] ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')} — ${n.failureSummary?.replace(/\n/g, ' ')}`).join('\n')}`,
  );
  const minor = results.violations.filter((v) => !bad.includes(v));
  test.info().annotations.push({
    type: 'axe',
    description: `${where}: ${results.passes.length} rules passed; minor/moderate: ${minor.map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`).join(', ') || 'none'}`,
  });
  expect(bad, `axe on ${where}:\n${describe.join('\n')}`).toEqual([]);
  return results;
}

/** axe in the light theme and the dark one, reloading the page in each (the theme is read at load). */
export async function axeInBothThemes(page: Page, where: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => window.localStorage.setItem('parcel-theme', t), theme);
    await page.reload();
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
    await expect(page.locator('h1')).toBeVisible();
    await expectNoSeriousA11yViolations(page, `${where}, ${theme}`);
  }
}

/** Undoes quoted-printable: soft line breaks, then =XX escapes (bytes, decoded as UTF-8). */
export function decodeQuotedPrintable(raw: string): string {
  const unwrapped = raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < unwrapped.length; i += 1) {
    const hex = unwrapped.slice(i + 1, i + 3);
    if (unwrapped[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(unwrapped[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  tag: string | null;
  createdAt: string;
}

/** The workspace's kept mail (no SMTP in e2e), read with the owner's session cookie. */
export async function listMail(page: Page): Promise<OutboxMessage[]> {
  const res = await page.request.get('/api/dashboard/mail');
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { transport: string; messages: OutboxMessage[] };
  expect(body.transport).toBe('files');
  return body.messages;
}

/** The body of the newest kept message with this tag to this address, decoded (read by whoever's session `page` holds). */
export async function mailText(page: Page, tag: string, to: string): Promise<string> {
  let id = '';
  await expect
    .poll(
      async () => {
        id = (await listMail(page)).find((m) => m.tag === tag && m.to === to)?.id ?? '';
        return id;
      },
      { timeout: 20_000 },
    )
    .not.toBe('');
  const res = await page.request.get(`/api/dashboard/mail/${encodeURIComponent(id)}`);
  expect(res.status()).toBe(200);
  return decodeQuotedPrintable(await res.text());
}

/** The first link matching `pattern` in the newest kept message with this tag to this address. */
export async function linkInMail(page: Page, tag: string, to: string, pattern: RegExp): Promise<string> {
  const match = (await mailText(page, tag, to)).match(pattern);
  expect(match, `a link in the ${tag} mail to ${to}`).not.toBeNull();
  return match![0];
}

/** Each recipient's personal link, from the "transfer.sent" mail sent to them. */
export async function personalLinks(page: Page, recipients: string[]): Promise<Record<string, string>> {
  let messages: OutboxMessage[] = [];
  await expect
    .poll(async () => {
      messages = (await listMail(page)).filter((m) => m.tag === 'transfer.sent');
      return messages.map((m) => m.to).sort();
    })
    .toEqual([...recipients].sort());
  const links: Record<string, string> = {};
  for (const message of messages) {
    const res = await page.request.get(`/api/dashboard/mail/${encodeURIComponent(message.id)}`);
    expect(res.status()).toBe(200);
    const text = decodeQuotedPrintable(await res.text());
    const match = text.match(/https?:\/\/[^\s"'<>]+\/t\/[A-Za-z0-9_-]+\?r=[A-Za-z0-9]+/);
    expect(match, `a personal link in the mail to ${message.to}`).not.toBeNull();
    links[message.to] = match![0];
  }
  return links;
}

/**
 * A new directory for what a test saves, in its output directory: Playwright empties that at the start
 * of each run, so downloads and unpacked zips do not pile up in the machine's temp directory.
 */
export function scratchDir(kind: string): string {
  const parent = test.info().outputPath(kind);
  fs.mkdirSync(parent, { recursive: true });
  return fs.mkdtempSync(path.join(parent, `${kind}-`));
}

/** Clicks a download link and returns the saved file's bytes and suggested name. */
export async function download(page: Page, link: Locator): Promise<{ download: Download; file: string; bytes: Buffer }> {
  const [started] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(await started.failure()).toBeNull();
  const dir = scratchDir('download');
  const file = path.join(dir, started.suggestedFilename());
  await started.saveAs(file);
  return { download: started, file, bytes: fs.readFileSync(file) };
}

/** Tests the zip with `unzip -t`, extracts it, and returns its files (relative path → bytes). */
export function unzipAll(zipFile: string): Record<string, Buffer> {
  const tested = execFileSync('unzip', ['-t', zipFile], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  expect(tested).toContain('No errors detected');
  const out = scratchDir('unzipped');
  execFileSync('unzip', ['-q', zipFile, '-d', out], { stdio: ['ignore', 'pipe', 'pipe'] });
  const files: Record<string, Buffer> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(out, full).split(path.sep).join('/')] = fs.readFileSync(full);
    }
  };
  walk(out);
  return files;
}

/** Through the new-transfer page: adds the files, waits for the uploads, fills the details, sends; returns the link. */
export async function sendTransfer(
  page: Page,
  details: { files: string[]; title: string; recipients?: string[]; password?: string; /** A language for a recipient's mail, by address: the language's own name. */ languages?: Record<string, string> },
) {
  await page.goto('/transfers');
  await page.getByRole('link', { name: 'New transfer' }).click();
  await expect(page.getByRole('heading', { name: 'New transfer', level: 1 })).toBeVisible();
  await addFiles(page, details.files);
  await expect(page.getByRole('region', { name: 'Files to send' }).getByRole('listitem')).toHaveCount(details.files.length);
  await expectUploadsFinished(page);
  await page.getByLabel('Title').fill(details.title);
  if (details.recipients) await page.getByLabel('Recipients').fill(details.recipients.join(', '));
  if (details.languages) {
    await page.getByText('Language of their mail').click();
    for (const [address, language] of Object.entries(details.languages)) await page.getByRole('combobox', { name: address }).selectOption({ label: language });
  }
  if (details.password) await page.getByLabel('Password').fill(details.password);
  await sendButton(page).click();
  await expect(page.getByRole('heading', { name: 'Your transfer is on its way' })).toBeVisible();
  return page.getByRole('textbox', { name: 'Transfer link' }).inputValue();
}
