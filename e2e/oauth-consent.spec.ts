import * as oauth from 'oauth4webapi';
import { expect, test, type Page } from '@playwright/test';
import { screenshotsInBothThemes, signUp } from './support';
import { expectNoSeriousA11yViolations } from './transfer-support';

/**
 * Connecting an AI assistant (issue 19), in Chromium against the real server: the assistant (this test,
 * with oauth4webapi) registers and sends the owner's browser to authorize; the dashboard's consent page
 * names it and its permissions; the owner unticks one and allows; the token holds exactly the rest;
 * Settings → Connected apps lists it, and revoking it ends its token at once.
 */

const redirectUri = 'http://127.0.0.1:9/callback';

const screenshots = (page: Page, name: string) => screenshotsInBothThemes(page, `oauth-${name}`, 'OAUTH_SCREENSHOTS');

test('the owner allows an assistant with one permission unticked, then revokes it in Connected apps', async ({ page, baseURL }) => {
  const issuer = new URL(baseURL!);
  const insecure = { [oauth.allowInsecureRequests]: true } as const;
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  const registered = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      as,
      { client_name: 'Claude Desktop (test)', redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none' },
      insecure,
    ),
  );
  const client: oauth.Client = { client_id: registered.client_id };
  const resource = `${issuer.origin}/mcp`;

  await signUp(page, 'Assistant Owners');
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const authorize = new URL(as.authorization_endpoint!);
  for (const [k, v] of Object.entries({
    client_id: client.client_id,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'transfers:read transfers:write contacts:read',
    state,
    resource,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  })) {
    authorize.searchParams.set(k, v);
  }
  // Where the assistant would be listening: the browser is sent back here with the code.
  let callback: URL | null = null;
  await page.route(`${redirectUri}**`, async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: 'text/plain', body: 'You can close this tab.' });
  });

  await page.goto(authorize.href);
  await expect(page.getByRole('heading', { name: 'Claude Desktop (test) wants access to your workspace' })).toBeVisible();
  await expect(page.getByText('127.0.0.1:9', { exact: true })).toBeVisible();
  const change = page.getByRole('checkbox', { name: /Change your transfers/ });
  await expect(change).toBeChecked();
  await expect(page.getByText('It can change and delete things')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the consent page');
  await screenshots(page, 'consent');
  await change.uncheck();
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect.poll(() => callback?.searchParams.get('code') ?? null).not.toBeNull();
  // The code is seen as the request leaves; the navigation to the callback must end before the next one starts.
  await page.waitForURL(`${redirectUri}**`);

  const params = oauth.validateAuthResponse(as, client, callback!, state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, { additionalParameters: { resource }, ...insecure }),
  );
  const me = async () => page.request.get('/api/v1/me', { headers: { authorization: `Bearer ${tokens.access_token}` } });
  const answer = await me();
  expect(answer.status()).toBe(200);
  const { key } = (await answer.json()) as { key: { via: string; scopes: string[]; canEmail: boolean } };
  expect(key.via).toBe('oauth');
  expect(key.scopes.sort()).toEqual(['contacts:read', 'transfers:read']);
  expect(key.canEmail).toBe(false);

  await page.goto('/settings');
  const apps = page.getByRole('region', { name: 'Connected apps' });
  await expect(apps.getByText('Claude Desktop (test)')).toBeVisible();
  await expect(apps.getByRole('list', { name: 'What Claude Desktop (test) may do' }).getByRole('listitem')).toHaveCount(2);
  await expectNoSeriousA11yViolations(page, 'settings with a connected app');
  await screenshots(page, 'connected-apps');
  await apps.getByRole('button', { name: 'Revoke Claude Desktop (test)' }).click();
  await page.getByRole('alertdialog', { name: 'Revoke “Claude Desktop (test)”?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(apps.getByText('No apps are connected.')).toBeVisible();
  expect((await me()).status()).toBe(401);
});

test('an owner who is not signed in signs in first, and lands on the consent page of the same request', async ({ browser, baseURL }) => {
  const issuer = new URL(baseURL!);
  const insecure = { [oauth.allowInsecureRequests]: true } as const;
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  const { client_id } = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(as, { client_name: 'Signed-out assistant', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }, insecure),
  );
  // An account that exists, in a browser signed out of it.
  const owner = await (await browser.newContext()).newPage();
  const { email, password } = await signUp(owner, 'Later Owners');
  await owner.context().close();

  const page = await (await browser.newContext()).newPage();
  const authorize = new URL(as.authorization_endpoint!);
  for (const [k, v] of Object.entries({
    client_id,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'contacts:read',
    state: 'later',
    resource: `${issuer.origin}/mcp`,
    code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
    code_challenge_method: 'S256',
  })) {
    authorize.searchParams.set(k, v);
  }
  await page.goto(authorize.href);
  await expect(page).toHaveURL(/\/signin\?redirect=%2Foauth%2Fconsent%2F/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Signed-out assistant wants access to your workspace' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /See your contacts/ })).toBeChecked();
});
