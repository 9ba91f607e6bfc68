import { expect, test } from '@playwright/test';
import { makeFiles, makeWorkspacePaid, signUp } from './support';
import { download, expectNoSeriousA11yViolations, personalLinks, sendTransfer } from './transfer-support';

/**
 * A transfer's link stops short of its files when it should: behind a password, once the sender
 * has revoked it, and once it has expired.
 */

test('a password-protected transfer asks for the password', async ({ page, context, browser }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { files, cleanup } = makeFiles({ 'contract.pdf': 200 * 1024 });
  try {
    await signUp(page);
    const link = await sendTransfer(page, { files: [files['contract.pdf']!.path], title: 'Signed contract', password: 'open sesame' });

    // The link as the sender copies it: the transfer's address, no personal token.
    const notice = page.getByRole('region', { name: 'Your transfer is on its way' });
    await notice.getByRole('button', { name: 'Copy' }).click();
    await expect(notice.getByRole('button', { name: 'Copied' })).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(link);
    expect(copied).toMatch(/\/t\/[A-Za-z0-9_-]+$/);

    const other = await browser.newContext();
    try {
      const recipient = await other.newPage();
      await recipient.goto(copied);
      await expect(recipient.getByRole('heading', { name: 'This transfer is protected', level: 1 })).toBeVisible();
      // Nothing about the transfer shows before the password.
      await expect(recipient.getByText('Signed contract')).toHaveCount(0);
      await expect(recipient.getByText('contract.pdf')).toHaveCount(0);
      await expectNoSeriousA11yViolations(recipient, 'the password prompt');

      const password = recipient.getByLabel('Password');
      await password.fill('open sesam');
      await recipient.getByRole('button', { name: 'Unlock' }).click();
      await expect(recipient.getByRole('alert')).toHaveText("That password isn't right. Check it and try again.");
      await expect(password).toHaveAttribute('aria-invalid', 'true');

      await password.fill('open sesame');
      await recipient.getByRole('button', { name: 'Unlock' }).click();
      await expect(recipient.getByRole('heading', { name: 'Signed contract', level: 1 })).toBeVisible();
      const fileList = recipient.getByRole('region', { name: 'Files', exact: true });
      await expect(fileList.getByRole('listitem')).toHaveCount(1);
      await expect(fileList.getByRole('listitem')).toContainText('contract.pdf');

      const got = await download(recipient, recipient.getByRole('link', { name: 'Download contract.pdf', exact: true }));
      expect(got.download.suggestedFilename()).toBe('contract.pdf');
      expect(got.bytes.equals(files['contract.pdf']!.bytes)).toBe(true);

      // The unlock lasts for the browser session: a reload and a second tab of the link keep it.
      await recipient.reload();
      await expect(recipient.getByRole('heading', { name: 'Signed contract', level: 1 })).toBeVisible();
      const secondTab = await other.newPage();
      await secondTab.goto(copied);
      await expect(secondTab.getByRole('heading', { name: 'Signed contract', level: 1 })).toBeVisible();
      // Another browser session has to give the password again.
      const stranger = await browser.newContext();
      try {
        const strangerPage = await stranger.newPage();
        await strangerPage.goto(copied);
        await expect(strangerPage.getByRole('heading', { name: 'This transfer is protected', level: 1 })).toBeVisible();
      } finally {
        await stranger.close();
      }
    } finally {
      await other.close();
    }
  } finally {
    cleanup();
  }
});

test('a revoked transfer shows that the sender removed it', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { files, cleanup } = makeFiles({ 'draft.docx': 50 * 1024 });
  const ada = 'ada@example.test';
  try {
    await signUp(page);
    const link = await sendTransfer(page, { files: [files['draft.docx']!.path], title: 'Second draft', recipients: [ada] });
    const personal = (await personalLinks(page, [ada]))[ada]!;

    const other = await browser.newContext();
    try {
      const recipient = await other.newPage();
      await recipient.goto(personal);
      await expect(recipient.getByRole('heading', { name: 'Second draft', level: 1 })).toBeVisible();

      // The owner revokes it from the transfer's page.
      await page.goto('/transfers');
      await page.getByRole('link', { name: 'Second draft' }).click();
      await expect(page.getByRole('heading', { name: 'Second draft', level: 1 })).toBeVisible();
      await page.getByRole('button', { name: 'Revoke transfer' }).click();
      const dialog = page.getByRole('alertdialog');
      await expect(dialog).toContainText('This cannot be undone.');
      await dialog.getByRole('button', { name: 'Revoke transfer' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(page.getByRole('status').filter({ hasText: 'Transfer revoked. Its link no longer works.' })).toHaveCount(1);
      await expect(page.getByText('Revoked', { exact: true }).first()).toBeVisible();
      await expect(page.getByRole('textbox', { name: 'Transfer link' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Revoke transfer' })).toHaveCount(0);

      // Both the personal link and the plain one now say so, without the files.
      for (const url of [personal, link]) {
        await recipient.goto(url);
        await expect(recipient.getByRole('heading', { name: 'The sender removed this transfer', level: 1 })).toBeVisible();
        await expect(recipient.getByText('Its files are no longer available. Ask the sender if you still need them.')).toBeVisible();
        await expect(recipient.getByText('draft.docx')).toHaveCount(0);
      }
      await expectNoSeriousA11yViolations(recipient, 'the removed-transfer page');

      // A link that never existed says only that it doesn't work.
      await recipient.goto(link.replace(/\/t\/[^/?#]+$/, '/t/doesNotExist123'));
      await expect(recipient.getByRole('heading', { name: "This link doesn't work", level: 1 })).toBeVisible();
    } finally {
      await other.close();
    }
  } finally {
    cleanup();
  }
});

test('an expired transfer shows a friendly page', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signUp(page);
  // A paid plan chooses when a transfer expires. This e2e server lets paid transfers expire seconds
  // from now (PAID_TRANSFER_MIN_EXPIRY_SECONDS).
  await makeWorkspacePaid(page);

  const { accessToken } = (await (await page.request.post('/api/dashboard/token')).json()) as { accessToken: string };
  const auth = { authorization: `Bearer ${accessToken}` };
  const expiresAt = new Date(Date.now() + 8_000);
  const created = await page.request.post('/api/v1/transfers', {
    headers: auth,
    data: { title: 'Expiring soon', files: [{ name: 'note.txt', size: 0 }], expiresAt: expiresAt.toISOString() },
  });
  expect(created.status()).toBe(201);
  const draft = (await created.json()) as { id: string; files: { uploadToken: string }[] };
  // A zero-byte file completes as soon as its tus upload is created.
  const upload = await page.request.post('/files/', {
    headers: { 'tus-resumable': '1.0.0', 'upload-length': '0', 'x-service-upload-token': draft.files[0]!.uploadToken },
  });
  expect(upload.status()).toBe(201);
  const sent = await page.request.post(`/api/v1/transfers/${draft.id}/finalize`, { headers: auth });
  expect(sent.status()).toBe(200);
  const { url } = (await sent.json()) as { url: string };

  const other = await browser.newContext();
  try {
    const recipient = await other.newPage();
    await recipient.goto(url);
    await expect(recipient.getByRole('heading', { name: 'Expiring soon' })).toBeVisible();

    // Real time has to pass on a real server; nothing here can move its clock.
    await recipient.waitForTimeout(Math.max(0, expiresAt.getTime() - Date.now()) + 500);
    await recipient.reload();
    await expect(recipient.getByRole('heading', { name: 'This transfer has expired' })).toBeVisible();
    await expect(recipient.getByRole('link', { name: /Download/ })).toHaveCount(0);
    await expectNoSeriousA11yViolations(recipient, 'expired page');
  } finally {
    await other.close();
  }
});
