import { expect, test, type Browser, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { viewports } from './a11y-support';
import { makeWorkspacePaid, readmePicture, signUp } from './support';
import { expectNoSeriousA11yViolations, linkInMail } from './transfer-support';

/**
 * Two-step verification as a person turns it on and lives with it (issue 36): set up an
 * authenticator app from Settings (the code computed here, as the phone would), keep the recovery
 * codes, sign in with a code, then on a phone in the dark theme with a recovery code, which works
 * once and not twice. Every step's screen passes axe.
 */

/** A code the server has not seen yet: the next 30-second step's, inside its one-step window. */
const nextCode = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + 30_000 });

async function newBrowser(browser: Browser, options: { phone?: boolean; dark?: boolean } = {}) {
  const context = await browser.newContext(options.phone ? { viewport: viewports[1]!.size } : {});
  if (options.dark) await context.addInitScript(() => window.localStorage.setItem('parcel-theme', 'dark'));
  return { context, page: await context.newPage() };
}

async function passwordStep(page: Page, account: { email: string; password: string }) {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
}

test('turn on two-step verification, sign in with a code, and with a recovery code once', async ({ browser }) => {
  test.setTimeout(120_000);
  const first = await newBrowser(browser);
  const later = await newBrowser(browser);
  const phone = await newBrowser(browser, { phone: true, dark: true });
  try {
    const { page } = first;
    const account = await signUp(page, 'Careful Co');
    await page.goto('/security');
    const card = page.getByRole('region', { name: 'Two-step verification', exact: true });
    await expect(card.getByText('Off', { exact: true })).toBeVisible();
    await card.getByRole('button', { name: 'Set up an authenticator app' }).click();

    const setup = page.getByRole('dialog', { name: 'Set up an authenticator app' });
    await expect(setup.getByRole('img', { name: /QR code to add Parcel/ })).toBeVisible();
    const secret = (await setup.getByTestId('two-step-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectNoSeriousA11yViolations(page, 'the setup dialog, light, desktop');
    await readmePicture(page, 'two-step-setup');
    // A wrong code is refused on its field, and nothing is turned on.
    await setup.getByLabel('Code from the app').fill('000000');
    await setup.getByLabel('Your password').fill(account.password);
    await setup.getByRole('button', { name: 'Turn on' }).click();
    await expect(setup.getByLabel('Code from the app')).toHaveAccessibleDescription('This code is not right');
    await setup.getByLabel('Code from the app').fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate());
    await setup.getByRole('button', { name: 'Turn on' }).click();

    const saved = page.getByRole('dialog', { name: 'Save your recovery codes' });
    const codeItems = saved.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(codeItems).toHaveCount(10);
    const codes = (await codeItems.allTextContents()).map((c) => c.trim());
    await expectNoSeriousA11yViolations(page, 'the recovery codes, light, desktop');
    await saved.getByRole('button', { name: 'I have saved them' }).click();
    await expect(card.getByText('On', { exact: true })).toBeVisible();
    await expect(card).toContainText('10 of 10 recovery codes left');

    // Another browser: the password, then the code from the app.
    await passwordStep(later.page, account);
    await expectNoSeriousA11yViolations(later.page, 'the second step, light, desktop');
    await readmePicture(later.page, 'two-step-sign-in');
    await later.page.getByLabel('Code from the app').fill(nextCode(secret));
    await later.page.getByRole('button', { name: 'Verify' }).click();
    await expect(later.page.getByRole('heading', { name: 'Transfers', level: 1 })).toBeVisible();

    // A phone in the dark: a recovery code, typed in capitals, works once.
    await passwordStep(phone.page, account);
    await phone.page.getByRole('button', { name: 'Use a recovery code' }).click();
    await phone.page.getByLabel('Recovery code').fill(codes[0]!.toUpperCase());
    await expectNoSeriousA11yViolations(phone.page, 'the second step with a recovery code, dark, phone');
    await readmePicture(phone.page, 'two-step-recovery-phone');
    await phone.page.getByRole('button', { name: 'Verify' }).click();
    await expect(phone.page.getByRole('heading', { name: 'Transfers', level: 1 })).toBeVisible();

    await phone.context.clearCookies();
    await passwordStep(phone.page, account);
    await phone.page.getByRole('button', { name: 'Use a recovery code' }).click();
    await phone.page.getByLabel('Recovery code').fill(codes[0]!);
    await phone.page.getByRole('button', { name: 'Verify' }).click();
    await expect(phone.page.getByLabel('Recovery code')).toHaveAccessibleDescription('This code is not right');

    // Security lists the three browsers; the first signs the others out.
    await page.reload();
    await expect(card).toContainText('9 of 10 recovery codes left');
    const sessions = page.getByRole('region', { name: 'Where you are signed in' });
    await expect(sessions.getByText('This browser')).toBeVisible();
    await expect(sessions.getByRole('listitem')).toHaveCount(3);
    await sessions.scrollIntoViewIfNeeded();
    await readmePicture(page, 'security-settings');
    await sessions.getByRole('button', { name: 'Sign out all other sessions' }).click();
    await expect(sessions.getByRole('listitem')).toHaveCount(1);
    await later.page.goto('/settings');
    await expect(later.page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  } finally {
    await Promise.all([first.context.close(), later.context.close(), phone.context.close()]);
  }
});

test('a workspace that requires two-step verification sends a member without it to set it up first', async ({ browser }) => {
  test.setTimeout(120_000);
  const owner = await newBrowser(browser);
  const member = await newBrowser(browser, { phone: true });
  try {
    const { page } = owner;
    const account = await signUp(page, 'Strict Studio');
    await makeWorkspacePaid(page);
    // The owner turns it on for themself (as the first test does through the page), then requires it in Security.
    const setup = (await (await page.request.post('/api/dashboard/security/two-step/setup')).json()) as { secret: string };
    const code = new TOTP({ secret: Secret.fromBase32(setup.secret) }).generate();
    expect((await page.request.post('/api/dashboard/security/two-step/enable', { data: { password: account.password, code } })).status()).toBe(200);
    await page.goto('/settings');
    await page.getByRole('link', { name: 'Security' }).click();
    const requirement = page.getByRole('region', { name: 'Two-step verification for everyone' });
    await requirement.getByRole('button', { name: 'Require it of everyone' }).click();
    await expect(requirement.getByRole('button', { name: 'Stop requiring it' })).toBeVisible();

    const email = `strict-member-${Date.now()}@example.test`;
    await page.request.post('/api/dashboard/members/invitations', { data: { email, role: 'member' } });
    const link = new URL(await linkInMail(page, 'workspace.invitation', email, /https?:\/\/[^\s]+\/join\?token=[A-Za-z0-9]+/));

    // The member joins, and lands on Security with the reason, wherever they meant to go.
    await member.page.goto(link.pathname + link.search);
    await member.page.getByLabel('Your name').fill('Mo Member');
    await member.page.getByLabel('Password', { exact: true }).fill('correct horse battery');
    await member.page.getByLabel('Repeat the password').fill('correct horse battery');
    await member.page.getByRole('button', { name: /Create your account and join/ }).click();
    await expect(member.page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();
    await expect(member.page.getByRole('status').filter({ hasText: 'Strict Studio asks everyone to use two-step verification' })).toBeVisible();
    await member.page.goto('/transfers');
    await expect(member.page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();
    await expectNoSeriousA11yViolations(member.page, 'Security while two-step verification is required, light, phone');

    await member.page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const dialog = member.page.getByRole('dialog', { name: 'Set up an authenticator app' });
    const secret = (await dialog.getByTestId('two-step-secret').textContent())!.trim();
    await dialog.getByLabel('Code from the app').fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate());
    await dialog.getByLabel('Your password').fill('correct horse battery');
    await dialog.getByRole('button', { name: 'Turn on' }).click();
    await member.page.getByRole('dialog', { name: 'Save your recovery codes' }).getByRole('button', { name: 'I have saved them' }).click();
    await member.page.goto('/transfers');
    await expect(member.page.getByRole('heading', { name: 'Transfers', level: 1 })).toBeVisible();
  } finally {
    await Promise.all([owner.context.close(), member.context.close()]);
  }
});
