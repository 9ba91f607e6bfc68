import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test, type Browser } from '@playwright/test';
import { passkeyPort } from '../playwright.config';
import { startTestIdentityProvider, type TestIdentityProvider } from '../src/server/test/oidc-idp';
import { e2eDataDir } from './data-dir';
import { screenshotsInBothThemes, setWorkspacePlan } from './support';
import { expectNoSeriousA11yViolations } from './transfer-support';

/**
 * Single sign-on as a company lives it (issue 36): the operator sets up the company's identity
 * provider with the admin CLI, the owner ties the company's email domain to it in Security, and a
 * colleague who never had an account signs in through the provider's own login page in Chromium and
 * lands in the owner's workspace; the next time they are matched, not made again; an address the
 * provider does not vouch for is refused with a reason. The provider is a real OpenID provider
 * (oidc-provider) started by this test on loopback; the server is the one at http://localhost,
 * which allows a provider over plain http on loopback (SSO_ALLOW_INSECURE, for tests only).
 */

const baseURL = `http://localhost:${passkeyPort}`;
const CLIENT_SECRET = 'e2e-client-secret-long-enough-for-anyone';
let idp: TestIdentityProvider;
let providerId: string;

/** The operator CLI, pointed at the server's data directory; run asynchronously, since the provider it checks answers from this process. */
async function admin(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: e2eDataDir(passkeyPort), PUBLIC_URL: baseURL, SSO_ALLOW_INSECURE: '1' };
  delete env.DATABASE_URL;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/server/admin/cli.ts', ...args, '--json'], { env });
  return JSON.parse(stdout) as Record<string, unknown>;
}

test.beforeAll(async () => {
  idp = await startTestIdentityProvider({ clients: [{ client_id: 'parcel', client_secret: CLIENT_SECRET, redirect_uris: [`${baseURL}/api/dashboard/signin/sso/callback`] }] });
  const added = await admin('sso', 'add', '--name', 'Acme Login', '--issuer', idp.issuer, '--client-id', 'parcel', '--client-secret', CLIENT_SECRET);
  expect(added.redirectUri).toBe(`${baseURL}/api/dashboard/signin/sso/callback`);
  providerId = String(added.id);
});

test.afterAll(async () => {
  // The server is shared with other specs: its sign-in page goes back to offering no provider.
  if (providerId) await admin('sso', 'remove', '--id', providerId);
  await idp?.close();
});

/** A fresh browser (no cookies of the server's or the provider's) signing in through the provider as `login`. */
async function signInThroughProvider(browser: Browser, login: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/signin');
  await page.getByRole('link', { name: 'Sign in with Acme Login' }).click();
  // The provider's own pages: its login form, then its consent.
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('anything: the test provider checks no password');
  await page.getByRole('button', { name: /sign-?in/i }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  return { context, page };
}

test('the owner ties their domain; a colleague signs in through the provider, joins, and is matched the next time', async ({ browser }) => {
  test.setTimeout(120_000);
  const owner = await browser.newContext({ baseURL });
  try {
    const page = await owner.newPage();
    const email = `owner-${Date.now()}@acme.test`;
    await page.goto('/signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
    await page.getByLabel('Workspace name').fill('Acme Corp');
    await page.getByRole('button', { name: /Create (workspace|account)/ }).click();
    await expect(page.getByText('Acme Corp').first()).toBeVisible();
    // Room for a colleague: the free plan holds its owner alone.
    await setWorkspacePlan(page, 'paid');

    await page.goto('/security');
    const card = page.getByRole('region', { name: 'Single sign-on' });
    await expect(card.getByText('No domain is tied to this workspace.')).toBeVisible();
    await expect(card.getByLabel('Identity provider for acme.test')).toHaveValue(providerId);
    await card.getByRole('button', { name: 'Tie acme.test', exact: true }).click();
    await expect(card.getByRole('list', { name: 'Tied domains' })).toContainText('acme.test');
    await expect(card.getByRole('button', { name: 'Tie acme.test', exact: true }), 'a domain is tied once').toHaveCount(0);
    await expect(card).toContainText('Sign in through your identity provider yourself first');
    await expectNoSeriousA11yViolations(page, 'Security with single sign-on, light, desktop');

    const first = await signInThroughProvider(browser, 'ana@acme.test');
    await expect(first.page.getByRole('heading', { name: 'Transfers', level: 1 })).toBeVisible();
    await expect(first.page.getByText('Acme Corp').first()).toBeVisible();
    const session = (await (await first.page.request.get('/api/dashboard/session')).json()) as { user: { id: string; email: string; singleSignOn: boolean }; workspace: { name: string; role: string } };
    expect(session.user).toMatchObject({ email: 'ana@acme.test', singleSignOn: true });
    expect(session.workspace).toMatchObject({ name: 'Acme Corp', role: 'member' });
    await first.context.close();

    const second = await signInThroughProvider(browser, 'ana@acme.test');
    await expect(second.page.getByRole('heading', { name: 'Transfers', level: 1 })).toBeVisible();
    const again = (await (await second.page.request.get('/api/dashboard/session')).json()) as { user: { id: string } };
    expect(again.user.id).toBe(session.user.id);
    await second.context.close();

    await page.goto('/members');
    await expect(page.getByText('ana@acme.test')).toBeVisible();

    // The owner signs in through the provider too (matched by their address), and requires it of everyone.
    await owner.clearCookies();
    await page.goto('/signin');
    await screenshotsInBothThemes(page, 'sso-signin', 'SSO_SCREENSHOTS');
    await page.getByRole('link', { name: 'Sign in with Acme Login' }).click();
    await page.locator('input[name="login"]').fill(email);
    await page.locator('input[name="password"]').fill('anything');
    await page.getByRole('button', { name: /sign-?in/i }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Transfers', level: 1 })).toBeVisible();
    await page.goto('/security');
    await card.getByRole('button', { name: 'Require single sign-on' }).click();
    await expect(card.getByRole('button', { name: 'Stop requiring it' })).toBeVisible();
    await screenshotsInBothThemes(page, 'sso-security', 'SSO_SCREENSHOTS');

    // A session signed in with the password is sent to sign in through the provider, and nothing else answers it.
    const byPassword = await browser.newContext({ baseURL });
    try {
      const other = await byPassword.newPage();
      await other.goto('/signin');
      await other.getByLabel('Email').fill(email);
      await other.getByLabel('Password').fill('correct horse battery');
      await other.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(other.getByRole('heading', { name: 'Sign in through your organisation' })).toBeVisible();
      await expect(other).toHaveURL(/\/single-sign-on$/);
      await expect(other.getByRole('link', { name: 'Sign in with Acme Login' })).toBeVisible();
      await expectNoSeriousA11yViolations(other, 'single sign-on required, light, desktop');
      await screenshotsInBothThemes(other, 'sso-required', 'SSO_SCREENSHOTS');
      expect((await other.request.post('/api/dashboard/token')).status()).toBe(403);
      await other.goto('/transfers');
      await expect(other).toHaveURL(/\/single-sign-on$/);
    } finally {
      await byPassword.close();
    }
    // Back as it was for the next run of the suite on this server: nothing required.
    await card.getByRole('button', { name: 'Stop requiring it' }).click();
    await expect(card.getByRole('button', { name: 'Require single sign-on' })).toBeVisible();
  } finally {
    await owner.close();
  }
});

test('an address the provider does not vouch for is refused, and the sign-in page says why', async ({ browser }) => {
  const { context, page } = await signInThroughProvider(browser, 'unverified@acme.test');
  try {
    await expect(page).toHaveURL(/\/signin\?sso_error=unverified_email/);
    await expect(page.getByRole('alert')).toContainText('does not confirm your email address');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'a refused single sign-on, light, desktop');
    await screenshotsInBothThemes(page, 'sso-refused', 'SSO_SCREENSHOTS');
    expect((await page.request.get('/api/dashboard/session')).status()).toBe(401);
  } finally {
    await context.close();
  }
});
