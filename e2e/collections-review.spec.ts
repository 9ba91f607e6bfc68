import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { contents, createCollection, optionNames, tool, uploadToCollection } from './collection-support';
import { makeFiles, makeWorkspacePaid, readmePicture, screenshotsInBothThemes, signUp } from './support';
import { download, expectNoSeriousA11yViolations, linkInMail } from './transfer-support';

/**
 * Collections, continued (collections.spec.ts holds the owner, guest, password and public journeys):
 * the trash gives back what was deleted, bytes intact, and a guest invited to contribute adds files
 * where the owner let them and reviews them, which the owner sees. A file of its own so that each
 * stays within its time budget (docs/testing.md).
 */

const collectionLink = /https?:\/\/[^\s"'<>]+\/c\/[A-Za-z0-9_-]+/;
const signInLink = /https?:\/\/[^\s"'<>]+\/c\/[A-Za-z0-9_-]+\?guest=[A-Za-z0-9]+/;

test('an owner deletes a file to the trash and restores it from there with its bytes intact', async ({ page }) => {
  test.setTimeout(90_000);
  const title = 'Client work';
  const { files, cleanup } = makeFiles({ 'brief.pdf': 200 * 1024, 'notes.txt': 3_000 });
  try {
    await signUp(page);
    await makeWorkspacePaid(page);
    await createCollection(page, { title, visibility: 'Private' });
    await uploadToCollection(page, { files: [files['brief.pdf']!.path, files['notes.txt']!.path] }, 2);
    const top = contents(page, title);
    await expect.poll(() => optionNames(top)).toEqual(['brief.pdf', 'notes.txt']);

    await top.getByRole('option', { name: 'brief.pdf' }).click();
    await tool(page, 'Delete').click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete “brief.pdf”?' });
    await expect(confirm).toContainText('You can restore it from the trash for 30 days.');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => optionNames(top)).toEqual(['notes.txt']);

    await page.getByRole('button', { name: 'Trash', exact: true }).click();
    const trash = page.getByRole('dialog', { name: 'Trash' });
    await expect(trash.getByRole('listitem')).toHaveCount(1);
    await expect(trash.getByRole('listitem')).toContainText(/^brief\.pdf205 KB · Deleted just now · Goes for good on /);
    await expectNoSeriousA11yViolations(page, 'the trash, light');
    await screenshotsInBothThemes(page, 'collection-trash', 'TRASH_SCREENSHOTS');
    await trash.getByRole('button', { name: 'Restore brief.pdf' }).click();
    await expect(trash.getByText('The trash is empty.')).toBeVisible();
    await trash.getByRole('button', { name: 'Close' }).click();

    await expect.poll(() => optionNames(top)).toEqual(['brief.pdf', 'notes.txt']);
    await top.getByRole('option', { name: 'brief.pdf' }).click();
    const restored = await download(page, tool(page, 'Download'));
    expect(restored.download.suggestedFilename()).toBe('brief.pdf');
    expect(restored.bytes.equals(files['brief.pdf']!.bytes)).toBe(true);
  } finally {
    cleanup();
  }
});

test('a guest invited to contribute adds files to the folder the owner picked, and only there, then comments and approves; the owner sees who added them, the review and the comment', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const title = 'Client portal';
  const guest = 'client@example.test';
  const guestContext = await browser.newContext();
  const brief = randomBytes(150 * 1024);
  try {
    await signUp(page);
    await makeWorkspacePaid(page);
    await createCollection(page, { title, visibility: 'Private' });
    const top = contents(page, title);
    for (const name of ['From the client', 'Final cut']) {
      await tool(page, 'New folder').click();
      const dialog = page.getByRole('dialog', { name: `New folder in “${title}”` });
      await dialog.getByLabel('Folder name').fill(name);
      await dialog.getByRole('button', { name: 'Create folder' }).click();
      await expect(top.getByRole('option', { name })).toBeVisible();
    }

    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const share = page.getByRole('dialog', { name: `Share “${title}”` });
    const guests = share.getByRole('region', { name: 'Guests' });
    await guests.getByLabel('Invite guests').fill(guest);
    await guests.getByRole('combobox', { name: 'They can' }).selectOption({ label: 'Can also add files to From the client' });
    await guests.getByRole('button', { name: 'Send invites' }).click();
    await expect(guests.getByRole('status').filter({ hasText: 'Invited' })).toHaveText(`Invited ${guest}.`);
    await expect(guests.getByRole('combobox', { name: `What ${guest} can do` })).toHaveValue(/^contributor:fo_/);
    await share.getByRole('button', { name: 'Close' }).click();
    const link = await linkInMail(page, 'collection.guest_invited', guest, collectionLink);

    const guestPage = await guestContext.newPage();
    await guestPage.goto(link);
    await guestPage.getByLabel('Email address').fill(guest);
    await guestPage.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await guestPage.goto(await linkInMail(page, 'collection.guest_sign_in', guest, signInLink));
    await expect(guestPage.getByText(`Signed in as ${guest}`)).toBeVisible();
    const contribute = guestPage.getByRole('region', { name: 'Add files' });
    // At the top, and in the other folder: where they may add files, and no picker.
    await expect(contribute).toContainText('You can add files to “From the client” and the folders in it. Open “From the client” to add files there.');
    await expect(contribute.getByRole('button', { name: 'Upload files' })).toHaveCount(0);
    await guestPage.getByRole('link', { name: 'Final cut', exact: true }).click();
    await expect(guestPage.getByRole('heading', { name: 'Final cut', level: 2 })).toBeVisible();
    await expect(contribute.getByRole('button', { name: 'Upload files' })).toHaveCount(0);

    await guestPage.goto(link);
    await guestPage.getByRole('link', { name: 'From the client', exact: true }).click();
    await expect(guestPage.getByRole('heading', { name: 'From the client', level: 2 })).toBeVisible();
    await expect(contribute.getByRole('button', { name: 'Upload files' })).toBeVisible();
    await guestPage.getByTestId('upload-files-input').setInputFiles({ name: 'brief.pdf', mimeType: 'application/pdf', buffer: brief });
    await expect(guestPage.getByTestId('upload-status')).toHaveText(/^The file is uploaded/);
    await expect(guestPage.getByRole('list').getByText(/PDF document · 154 KB · Added by you/)).toBeVisible();
    await expectNoSeriousA11yViolations(guestPage, 'a contributor guest’s page, light');
    await screenshotsInBothThemes(guestPage, 'collection-contributor', 'PORTAL_SCREENSHOTS');

    // The guest reviews it: a comment (Enter is a new line, only the button posts), then an approval.
    await guestPage.getByRole('button', { name: 'Review brief.pdf', exact: true }).click();
    const review = guestPage.getByRole('dialog', { name: 'Review of brief.pdf' });
    await expect(review.getByText('No comments yet.')).toBeVisible();
    const box = review.getByLabel('Add a comment');
    await box.fill('Final version attached.');
    await box.press('Enter');
    await box.pressSequentially('<b>Page 3</b> has the new prices.');
    await expect(review.getByText('No comments yet.')).toBeVisible();
    await review.getByRole('button', { name: 'Post comment' }).click();
    await expect(review.getByRole('list', { name: 'Comments on brief.pdf' }).getByRole('listitem')).toContainText(['Final version attached.\n<b>Page 3</b> has the new prices.']);
    await review.getByRole('button', { name: 'Approve' }).click();
    await expect(review.getByRole('button', { name: 'Approve' })).toHaveAttribute('aria-pressed', 'true');
    await expectNoSeriousA11yViolations(guestPage, 'a guest’s review of a file, light');
    await screenshotsInBothThemes(guestPage, 'collection-review-guest', 'PORTAL_SCREENSHOTS');
    await review.getByRole('button', { name: 'Close' }).click();
    await expect(guestPage.getByRole('list').getByText(/Added by you · Approved · 1 comment/)).toBeVisible();

    // The owner finds it in that folder, added by the guest, approved, with the comment and its bytes.
    await page.reload();
    await expect(top.getByRole('option', { name: 'From the client' })).toContainText('1 approved');
    await page.getByLabel('Show').selectOption({ label: 'Changes requested' });
    await expect(top.getByRole('option', { name: 'From the client' })).toBeVisible();
    await page.getByLabel('Show').selectOption({ label: 'All files' });
    await expect.poll(() => optionNames(top)).toEqual(['Final cut', 'From the client']);
    await top.getByRole('option', { name: 'From the client' }).dblclick();
    const inbox = contents(page, 'From the client');
    const file = inbox.getByRole('option', { name: 'brief.pdf' });
    await expect(file).toContainText(`added by ${guest} (guest) · approved · 1 comment`);
    await page.getByLabel('Show').selectOption({ label: 'Not reviewed' });
    await expect(file).toHaveCount(0);
    await page.getByLabel('Show').selectOption({ label: 'Approved' });
    await file.click();
    await tool(page, 'Review').click();
    const ownerReview = page.getByRole('dialog', { name: 'Review of brief.pdf' });
    await expect(ownerReview.getByRole('listitem')).toContainText([`${guest} (guest)`]);
    await expect(ownerReview.getByText(`Approved by ${guest}`)).toBeVisible();
    await ownerReview.getByLabel('Add a comment').fill('Thanks, all good.');
    await ownerReview.getByRole('button', { name: 'Post comment' }).click();
    await expect(ownerReview.getByRole('listitem')).toHaveCount(2);
    await readmePicture(page, 'collection-review');
    await ownerReview.getByRole('button', { name: 'Close' }).click();
    const got = await download(page, tool(page, 'Download'));
    expect(got.bytes.equals(brief)).toBe(true);
  } finally {
    await guestContext.close();
  }
});
