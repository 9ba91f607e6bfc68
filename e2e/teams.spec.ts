import { expect, test, type Browser, type Page } from '@playwright/test';
import { makeFiles, makeWorkspacePaid, signUp } from './support';
import { linkInMail, sendTransfer } from './transfer-support';

/**
 * A team, as its people live it (issue 35): the owner invites an admin (a new person) and a member
 * (someone with a workspace of their own), the invitations read from the outbox; each joins in their
 * own browser; the member switches between their workspaces and sends a transfer; the admin sees it
 * attributed in the list and in the activity log; the owner removes the member, whose open page
 * stops working at their next step.
 */

async function personIn(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

async function invite(owner: Page, email: string, role: 'Admin' | 'Member') {
  await owner.goto('/members');
  const form = owner.getByRole('region', { name: 'Invite someone' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Role').selectOption({ label: role });
  await form.getByRole('button', { name: 'Send the invitation' }).click();
  await expect(owner.getByRole('status').filter({ hasText: `Invitation sent to ${email}.` })).toBeAttached();
  return linkInMail(owner, 'workspace.invitation', email, /https?:\/\/[^\s]+\/join\?token=[A-Za-z0-9]+/);
}

const header = (page: Page) => page.getByRole('banner');

/** The README's tour pictures, from this flow: only with `npm run screenshots` (UPDATE_SCREENSHOTS). */
async function readmePicture(page: Page, name: string, clip?: { x: number; y: number; width: number; height: number }) {
  if (process.env.UPDATE_SCREENSHOTS) await page.screenshot({ path: `docs/screenshots/${name}.png`, clip });
}

test('an owner builds a team: invitations by mail, joining, the switcher, attribution, the activity log and removal', async ({ browser }) => {
  test.setTimeout(150_000);
  const { files, cleanup } = makeFiles({ 'figures.csv': 3_000 });
  const owner = await personIn(browser);
  const admin = await personIn(browser);
  const member = await personIn(browser);
  try {
    await signUp(owner.page, 'Acme Studio');
    await makeWorkspacePaid(owner.page);
    // The member has a workspace of their own already.
    const memberAccount = await signUp(member.page, 'Bea Design');
    const adminEmail = `admin-${Date.now()}@example.test`;

    const adminLink = await invite(owner.page, adminEmail, 'Admin');
    const memberLink = await invite(owner.page, memberAccount.email, 'Member');
    const invitations = owner.page.getByRole('region', { name: 'Invitations' });
    await expect(invitations.getByText(adminEmail)).toBeVisible();

    // A new person: the join page makes their account.
    await admin.page.goto(new URL(adminLink).pathname + new URL(adminLink).search);
    await expect(admin.page.getByRole('heading', { level: 1 })).toContainText('Acme Studio');
    await admin.page.getByLabel('Your name').fill('Alan Admin');
    await admin.page.getByLabel('Password', { exact: true }).fill('correct horse battery');
    await admin.page.getByLabel('Repeat the password').fill('correct horse battery');
    await admin.page.getByRole('button', { name: 'Create your account and join Acme Studio' }).click();
    await expect(header(admin.page).getByText('Acme Studio')).toBeVisible();
    await expect(admin.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' })).toBeVisible();

    // Someone signed in to their own workspace joins with one click, then moves between the two.
    await member.page.goto(new URL(memberLink).pathname + new URL(memberLink).search);
    await member.page.getByRole('button', { name: 'Join Acme Studio' }).click();
    await expect(header(member.page).getByRole('button', { name: /Acme Studio\s*, switch workspace/ })).toBeVisible();
    await expect(member.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' })).toHaveCount(0);
    await header(member.page).getByRole('button', { name: /switch workspace/ }).click();
    await readmePicture(member.page, 'workspace-switcher', { x: 0, y: 0, width: 640, height: 200 });
    await header(member.page).getByRole('button', { name: /Bea Design/ }).click();
    await expect(header(member.page).getByRole('button', { name: /Bea Design\s*, switch workspace/ })).toBeVisible();
    await header(member.page).getByRole('button', { name: /switch workspace/ }).click();
    await header(member.page).getByRole('button', { name: /Acme Studio/ }).click();
    await expect(header(member.page).getByRole('button', { name: /Acme Studio\s*, switch workspace/ })).toBeVisible();

    await sendTransfer(member.page, { files: [files['figures.csv']!.path], title: 'Figures for Q4' });
    const transferPage = new URL(member.page.url()).pathname;

    // A link into Acme Studio, opened while working in Bea Design, offers to open it there.
    await header(member.page).getByRole('button', { name: /switch workspace/ }).click();
    await header(member.page).getByRole('button', { name: /Bea Design/ }).click();
    await expect(header(member.page).getByRole('button', { name: /Bea Design\s*, switch workspace/ })).toBeVisible();
    await member.page.goto(transferPage);
    await expect(member.page.getByRole('heading', { name: 'Transfer not found' })).toBeVisible();
    await member.page.getByRole('button', { name: 'Open it in Acme Studio' }).click();
    await expect(member.page.getByRole('heading', { name: 'Figures for Q4', level: 1 })).toBeVisible();
    await expect(header(member.page).getByRole('button', { name: /Acme Studio\s*, switch workspace/ })).toBeVisible();

    // The admin sees who sent it, in the list and in the activity log.
    await admin.page.goto('/transfers');
    const row = admin.page.getByRole('region', { name: 'Sent' }).getByRole('listitem').filter({ hasText: 'Figures for Q4' });
    await expect(row).toContainText(`by ${memberAccount.email}`);
    await admin.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' }).click();
    const log = admin.page.getByRole('list', { name: 'Activity, newest first' });
    await expect(log.getByRole('listitem').filter({ hasText: 'sent Figures for Q4' })).toContainText(memberAccount.email);
    await expect(log.getByRole('listitem').filter({ hasText: `invited ${adminEmail} as admin` })).toBeVisible();
    await readmePicture(admin.page, 'activity');
    await admin.page.getByLabel('What').selectOption({ label: 'Joins' });
    await expect(log.getByRole('listitem')).toHaveCount(2);

    // The owner removes the member: their open page stops at their next step.
    await owner.page.goto('/members');
    await expect(owner.page.getByRole('button', { name: `Remove ${memberAccount.email}` })).toBeVisible();
    await readmePicture(owner.page, 'members');
    await owner.page.getByRole('button', { name: `Remove ${memberAccount.email}` }).click();
    await owner.page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await expect(owner.page.getByRole('status').filter({ hasText: `${memberAccount.email} was removed.` })).toBeAttached();
    await member.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Collections' }).click();
    await expect(member.page.getByRole('heading', { name: 'Your session has ended', level: 1 })).toBeVisible();
    await expect(member.page.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signin?redirect=%2Fcollections');
  } finally {
    cleanup();
    await Promise.all([owner.context.close(), admin.context.close(), member.context.close()]);
  }
});
