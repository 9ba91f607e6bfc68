import { expect, test } from '@playwright/test';
import { inviteOnlyPort } from '../playwright.config';
import { signUp } from './support';
import { axeInBothThemes, linkInMail } from './transfer-support';

/**
 * Running a server: the operator (its first account) invites people while sign-up is by
 * invitation, a stranger cannot sign up, an invited address can; the operator disables a
 * workspace. And a forgotten password is reset through the mailed link.
 */

const password = 'correct horse battery';

test('with sign-up by invitation, a stranger cannot sign up, an invited address can, and the operator can disable its workspace', async ({ browser }) => {
  test.setTimeout(120_000);
  const baseURL = `http://127.0.0.1:${inviteOnlyPort}`;
  const operatorContext = await browser.newContext({ baseURL });
  const strangerContext = await browser.newContext({ baseURL });
  const inviteeContext = await browser.newContext({ baseURL });
  try {
    // The server's first account is the operator's, even though sign-up is by invitation.
    const operator = await operatorContext.newPage();
    await operator.goto('/');
    await expect(operator).toHaveURL(/\/signup/);
    await signUp(operator, 'Operations');
    await operator.getByRole('link', { name: 'Admin' }).first().click();
    await expect(operator.getByRole('heading', { name: 'Admin', level: 1 })).toBeVisible();
    await expect(operator.getByRole('heading', { name: 'Workspaces (1)' })).toBeVisible();
    // The operator's own workspace starts on the paid plan. Changing it is confirmed, and the header's badge follows at once.
    const badge = (plan: string) => operator.getByRole('banner').getByText(plan, { exact: true });
    await expect(badge('Paid')).toBeVisible();
    await operator.getByLabel('Plan of Operations').selectOption('free');
    await expect(operator.getByRole('status').filter({ hasText: 'Plan of Operations changed to free.' })).toBeVisible();
    await expect(badge('Free')).toBeVisible();
    await operator.getByLabel('Plan of Operations').selectOption('paid');
    await expect(operator.getByRole('status').filter({ hasText: 'Plan of Operations changed to paid.' })).toBeVisible();
    await expect(badge('Paid')).toBeVisible();

    // A stranger finds no form to fill in, and the API refuses them too.
    const stranger = await strangerContext.newPage();
    await stranger.goto('/signup');
    await expect(stranger.getByRole('heading', { name: 'Sign-up is by invitation' })).toBeVisible();
    await expect(stranger.getByLabel('Password')).toHaveCount(0);
    await axeInBothThemes(stranger, 'sign-up by invitation only');
    const refused = await stranger.request.post('/api/dashboard/signup', { data: { email: 'stranger@example.test', password, workspaceName: 'Nope' } });
    expect(refused.status()).toBe(403);

    // The operator invites an address; the invitation arrives by mail.
    const invitee = `invitee-${Date.now()}@example.test`;
    await operator.getByLabel('Email to invite').fill(invitee);
    await operator.getByRole('button', { name: 'Invite' }).click();
    await expect(operator.getByRole('status').filter({ hasText: `Invitation sent to ${invitee}.` })).toBeVisible();
    await expect(operator.getByRole('list', { name: 'Open invitations' })).toContainText(invitee);
    await axeInBothThemes(operator, 'the Admin page');
    const link = await linkInMail(operator, 'signup.invite', invitee, /https?:\/\/\S+\/signup\?invite=[A-Za-z0-9]+/);

    // The invited address signs up through the link: its address is filled in and cannot change.
    const guest = await inviteeContext.newPage();
    await guest.goto(link);
    await expect(guest.getByRole('heading', { name: 'Create an account' })).toBeVisible();
    await expect(guest.getByLabel('Email')).toHaveValue(invitee);
    await expect(guest.getByLabel('Email')).toHaveAttribute('readonly', '');
    await guest.getByLabel('Password', { exact: true }).fill(password);
    await guest.getByLabel('Workspace name').fill('Invited Studio');
    await guest.getByRole('button', { name: 'Create account' }).click();
    await expect(guest).toHaveURL(/\/transfers$/);
    await expect(guest.getByText('Invited Studio').first()).toBeVisible();
    await expect(guest.getByRole('link', { name: 'Admin' })).toHaveCount(0);

    // The operator sees it, gives it the paid plan, then disables it: its owner is signed out and cannot sign back in.
    await operator.reload();
    await expect(operator.getByRole('heading', { name: 'Workspaces (2)' })).toBeVisible();
    await operator.getByLabel('Plan of Invited Studio').selectOption('paid');
    await expect(operator.getByLabel('Plan of Invited Studio')).toHaveValue('paid');
    await expect(operator.getByRole('status').filter({ hasText: 'Plan of Invited Studio changed to paid.' })).toBeVisible();
    // Another workspace's plan leaves the operator's badge as it was.
    await expect(badge('Paid')).toBeVisible();
    await operator.getByRole('button', { name: 'Disable Invited Studio' }).click();
    await operator.getByRole('alertdialog', { name: 'Disable “Invited Studio”?' }).getByRole('button', { name: 'Disable' }).click();
    await expect(operator.getByRole('button', { name: 'Enable Invited Studio' })).toBeVisible();

    await guest.reload();
    await expect(guest).toHaveURL(/\/signin/);
    await guest.getByLabel('Email').fill(invitee);
    await guest.getByLabel('Password').fill(password);
    await guest.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(guest.getByRole('alert')).toContainText('disabled by the operator');
  } finally {
    await Promise.all([operatorContext.close(), strangerContext.close(), inviteeContext.close()]);
  }
});

test('a forgotten password is reset through the mailed link, which works once', async ({ browser, page }) => {
  test.setTimeout(90_000);
  const owner = await signUp(page, 'Forgetful Studio');
  const visitor = await browser.newContext();
  try {
    const forgot = await visitor.newPage();
    await forgot.goto('/signin');
    await axeInBothThemes(forgot, 'the sign-in page');
    await forgot.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(forgot.getByRole('heading', { name: 'Reset your password', level: 1 })).toBeVisible();
    await axeInBothThemes(forgot, 'the forgot-password page');
    await forgot.getByLabel('Email').fill(owner.email);
    await forgot.getByRole('button', { name: 'Send the link' }).click();
    await expect(forgot.getByRole('status')).toContainText(`If an account uses ${owner.email}`);

    // The mail reaches the owner (the test reads it through the workspace's kept mail).
    const link = await linkInMail(page, 'account.password-reset', owner.email, /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9]+/);
    await forgot.goto(link);
    await expect(forgot.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await axeInBothThemes(forgot, 'the reset-password page');
    const newPassword = 'a fresh and long passphrase';
    await forgot.getByLabel('New password', { exact: true }).fill(newPassword);
    await forgot.getByLabel('Repeat the new password').fill(newPassword);
    await forgot.getByRole('button', { name: 'Set the new password' }).click();
    await expect(forgot).toHaveURL(/\/transfers$/);
    await expect(forgot.getByText('Forgetful Studio').first()).toBeVisible();

    // The link works once; the old password no longer does, the new one does.
    await forgot.goto(link);
    await forgot.getByLabel('New password', { exact: true }).fill('another long passphrase');
    await forgot.getByLabel('Repeat the new password').fill('another long passphrase');
    await forgot.getByRole('button', { name: 'Set the new password' }).click();
    await expect(forgot.getByRole('alert')).toContainText('expired or was used already');
    expect((await visitor.request.post('/api/dashboard/signin', { data: { email: owner.email, password: owner.password } })).status()).toBe(401);
    expect((await visitor.request.post('/api/dashboard/signin', { data: { email: owner.email, password: newPassword } })).status()).toBe(200);
  } finally {
    await visitor.close();
  }
});
