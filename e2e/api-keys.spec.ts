import { expect, test } from '@playwright/test';

/**
 * Runs first, alone (its own Playwright project, which the others depend on): the first visit finds no workspace yet,
 * and the workspace created then is the operator's, on the paid plan (issue 31, item 6).
 *
 * The foundation's promise, as a new user lives it: create the workspace, create a key in the
 * dashboard, copy it, call the API with it, revoke it, and see the API refuse it.
 */
test('a new owner creates a key, uses it on /api/v1/me, revokes it and gets 401', async ({ page, context, request }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const email = `owner-${Date.now()}@example.test`;

  await page.goto('/');
  await expect(page).toHaveURL(/\/signup/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
  await page.getByLabel('Workspace name').fill('Acme Studio');
  await page.getByRole('button', { name: /Create (workspace|account)/ }).click();

  await expect(page.getByText('Acme Studio').first()).toBeVisible();
  // The operator's own workspace starts on the paid plan: no upsell on their own server.
  await expect(page.getByRole('banner').getByText('Paid', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'API keys' }).first().click();
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();

  await page.getByLabel('Name').fill('Zapier');
  await page.getByRole('checkbox', { name: 'contacts:read' }).check();
  // On the paid plan a key may have collections:write (a free workspace's checkbox is disabled).
  await expect(page.getByRole('checkbox', { name: 'collections:write' })).toBeEnabled();
  await page.getByRole('button', { name: 'Create key' }).click();

  const secretField = page.getByLabel('Secret key');
  await expect(secretField).toHaveValue(/^sk_live_[0-9A-Za-z]{43}$/);
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  const key = await page.evaluate(() => navigator.clipboard.readText());
  expect(key).toBe(await secretField.inputValue());
  if (process.env.UPDATE_SCREENSHOTS) await page.screenshot({ path: 'docs/screenshots/api-keys.png', fullPage: true });

  const me = await request.get('/api/v1/me', { headers: { authorization: `Bearer ${key}` } });
  expect(me.status()).toBe(200);
  const body = await me.json();
  expect(body.workspace.name).toBe('Acme Studio');
  expect(body.key.scopes).toEqual(['contacts:read']);

  await page.getByRole('button', { name: 'Done' }).click();
  await expect(secretField).toHaveCount(0);
  await page.getByRole('button', { name: 'Revoke Zapier' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(page.getByRole('heading', { name: 'Zapier' })).toHaveCount(0);

  const afterRevoke = await request.get('/api/v1/me', { headers: { authorization: `Bearer ${key}` } });
  expect(afterRevoke.status()).toBe(401);
  expect((await afterRevoke.json()).error.code).toBe('unauthorized');
});
