import { expect, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { passkeyPort } from '../playwright.config';
import { signUp } from './support';
import { expectNoSeriousA11yViolations } from './transfer-support';

/**
 * Passkeys as a person uses them (issue 36), with Chromium's virtual authenticator (the DevTools
 * protocol's WebAuthn domain) standing in for a phone or a security key: add one in Security, sign
 * in with it alone (no password, and no code although two-step verification is on) from the email
 * field's autofill (conditional UI) and with the button, see it used, remove it, and find it refused after. The server answers at http://localhost, a passkey's
 * relying party being a domain.
 */

test('add a passkey, sign in with it alone, remove it', async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL: `http://localhost:${passkeyPort}` });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });

    const account = await signUp(page, 'Keyless Ltd');
    // Two-step verification on: a passkey still signs in alone.
    const setup = (await (await page.request.post('/api/dashboard/security/two-step/setup')).json()) as { secret: string };
    const code = new TOTP({ secret: Secret.fromBase32(setup.secret) }).generate();
    expect((await page.request.post('/api/dashboard/security/two-step/enable', { data: { password: account.password, code } })).status()).toBe(200);

    await page.goto('/security');
    const card = page.getByRole('region', { name: 'Passkeys' });
    await expect(card.getByText('No passkeys yet.')).toBeVisible();
    await card.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
    await expectNoSeriousA11yViolations(page, 'the add-a-passkey dialog, light, desktop');
    await dialog.getByLabel('Name').fill('Work laptop');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(card.getByText('Work laptop', { exact: true })).toBeVisible();
    await expect(card).toContainText('not used yet');

    // Where the browser offers passkeys in the email field's autofill (conditional UI), the one picked
    // there signs in: the virtual authenticator picks it as soon as the sign-in page asks.
    await context.clearCookies();
    await page.goto('/signin');
    await expect(page.getByRole('heading', { name: 'Transfers', level: 1 })).toBeVisible();

    // As a browser without conditional UI (from the next page on): the button.
    await page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
    });
    await context.clearCookies();
    await page.goto('/signin');
    await expect(page.getByLabel('Email')).toHaveAttribute('autocomplete', 'username webauthn');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('heading', { name: 'Transfers', level: 1 })).toBeVisible();

    await page.goto('/security');
    await expect(card).toContainText('last used');
    await card.getByRole('button', { name: 'Remove the passkey Work laptop' }).click();
    await page.getByRole('alertdialog', { name: 'Remove the passkey “Work laptop”?' }).getByRole('button', { name: 'Remove' }).click();
    await expect(card.getByText('No passkeys yet.')).toBeVisible();

    // The authenticator still holds it; the server no longer knows it.
    await context.clearCookies();
    await page.goto('/signin');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('alert')).toContainText('This passkey is not one of this server’s');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  } finally {
    await context.close();
  }
});
