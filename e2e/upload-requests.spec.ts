import path from 'node:path';
import { expect, test } from '@playwright/test';
import { contents, createCollection, newFolder, optionNames, secretLink, tool } from './collection-support';
import { createRequest } from './request-support';
import { makeFiles, makeWorkspacePaid, signUp } from './support';
import { addFiles, addFolder, download, expectNoSeriousA11yViolations, expectUploadsFinished, mailText, unzipAll } from './transfer-support';

/**
 * Upload requests as their owner and a stranger live them: the owner asks for files into a
 * collection's folder and shares the link; someone without an account opens it in their own
 * browser, says who they are, drops files and a folder and sends; the owner finds the submission,
 * its folder in the collection with every byte intact, and the uploader's words shown as text.
 * Pausing and closing the request change what the page says.
 */

const REQUEST_TITLE = 'Signed contract and scans';
const MESSAGE = '<script>alert("owned")</script> Here are the papers.\nCall me if anything is missing.';
const UPLOADER = 'Ann <b>Lee</b>';

test('an owner asks for files into a collection folder; a stranger sends files and a folder with a message; the owner gets them intact; pausing and closing show their pages', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const { dir, files, cleanup } = makeFiles({
    'contract.pdf': 180_000,
    'invoice.txt': 3_000,
    'scans/page-1.bin': 260_000,
    'scans/extra/page-2.bin': 40_000,
  });
  const stranger = await browser.newContext();
  try {
    const owner = await signUp(page, 'Northwind Legal');
    await makeWorkspacePaid(page);
    await createCollection(page, { title: 'Client documents', visibility: 'Private' });
    await newFolder(page, 'Client documents', 'Incoming');

    const link = await createRequest(page, {
      title: REQUEST_TITLE,
      message: 'Please send the signed contract\nand the scans.',
      collection: 'Client documents',
      folder: 'Incoming',
    });
    expect(link).toMatch(/\/r\/[A-Za-z0-9_-]{20,}$/);
    await expect(page.getByRole('img', { name: /QR code/i })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'the request page');
    await page.goto('/requests');
    await expect(page.getByRole('link', { name: REQUEST_TITLE })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'the requests list');

    // A stranger, in a browser of their own.
    const visitor = await stranger.newPage();
    await visitor.goto(link);
    await expect(visitor.getByRole('heading', { name: REQUEST_TITLE, level: 1 })).toBeVisible();
    await expect(visitor.getByText('Northwind Legal').first()).toBeVisible();
    await expectNoSeriousA11yViolations(visitor, 'the upload page');
    await visitor.getByLabel('Your name').fill(UPLOADER);
    await visitor.getByLabel('Your email address (optional)').fill('ann@example.test');
    await visitor.getByLabel(/message/i).fill(MESSAGE);
    await visitor.getByRole('button', { name: 'Continue' }).click();
    await addFiles(visitor, [files['contract.pdf']!.path, files['invoice.txt']!.path]);
    await addFolder(visitor, path.join(dir, 'scans'));
    await expectUploadsFinished(visitor);
    await expectNoSeriousA11yViolations(visitor, 'the upload page with files');
    await visitor.getByRole('button', { name: 'Send 4 files' }).click();
    await expect(visitor.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    await expect(visitor.getByRole('status').filter({ hasText: /^Your 4 files \(.+\) were delivered to Northwind Legal\.$/ })).toBeVisible();
    // Nothing the uploader typed ran as a script or became markup.
    expect(await visitor.evaluate(() => document.querySelectorAll('b').length)).toBe(0);

    // The owner: the submission, with the uploader's words as they typed them.
    await page.goto('/requests');
    await page.getByRole('link', { name: REQUEST_TITLE }).click();
    const submissions = page.getByRole('region', { name: 'Submissions' });
    await expect(submissions.getByText(UPLOADER, { exact: true })).toBeVisible();
    await expect(submissions.getByText('<script>alert("owned")</script> Here are the papers.', { exact: false })).toBeVisible();
    expect(await page.evaluate(() => [...document.querySelectorAll('b')].some((b) => b.textContent === 'Lee'))).toBe(false);

    const mail = await mailText(page, 'request.submitted', owner.email);
    expect(mail).toContain(`${UPLOADER} (ann@example.test) sent 4 files`);
    // Text as text in the plain part; escaped in the HTML part.
    const html = mail.slice(mail.indexOf('Content-Type: text/html'));
    expect(html).toContain('&lt;script&gt;alert(');
    expect(html).not.toContain('<script>alert(');

    // Its folder in the collection, named from the uploader and the date, under Incoming, the tree kept.
    await page.getByRole('link', { name: `Open folder of ${UPLOADER}’s submission` }).click();
    await expect(page).toHaveURL(/\/collections\/col_[A-Za-z0-9]+\?folder=fo_/);
    // A slash cannot be in a folder's name: the uploader's becomes a hyphen.
    const held = contents(page, `Ann <b>Lee<-b> ${new Date().toISOString().slice(0, 10)}`);
    await expect.poll(() => optionNames(held)).toEqual(['scans', 'contract.pdf', 'invoice.txt']);
    const zip = await download(page, tool(page, 'Download this folder'));
    const unzipped = unzipAll(zip.file);
    for (const name of ['contract.pdf', 'invoice.txt', 'scans/page-1.bin', 'scans/extra/page-2.bin']) {
      expect(unzipped[name]?.equals(files[name]!.bytes), `${name} arrived intact`).toBe(true);
    }

    // Paused: the page says so; resumed, it takes files again; closed, it says it no longer does.
    await page.goto('/requests');
    await page.getByRole('link', { name: REQUEST_TITLE }).click();
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();
    await visitor.goto(link);
    await expect(visitor.getByRole('heading', { name: 'This request is paused' })).toBeVisible();
    await expectNoSeriousA11yViolations(visitor, 'the paused page');

    await page.getByRole('button', { name: 'Close request' }).click();
    const confirm = page.getByRole('alertdialog', { name: `Close “${REQUEST_TITLE}”?` });
    await expect(confirm).toContainText('Closing is final');
    await confirm.getByRole('button', { name: 'Close request' }).click();
    await expect(page.getByRole('button', { name: 'Resume' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
    await visitor.goto(link);
    await expect(visitor.getByRole('heading', { name: 'This request is no longer accepting files' })).toBeVisible();
    await expectNoSeriousA11yViolations(visitor, 'the closed page');

    // A link that was never made: the same page as a transfer's unknown link.
    await visitor.goto(link.replace(/\/r\/.+$/, '/r/nosuchrequest'));
    await expect(visitor.getByRole('heading', { name: "This link doesn't work" })).toBeVisible();
  } finally {
    await stranger.close();
    cleanup();
  }
});

test('files an uploader added and left without Send are seen by nobody but the owner, marked “not sent yet”, until they press Send', async ({ page, browser }) => {
  test.setTimeout(150_000);
  const { files, cleanup } = makeFiles({ 'entry-1.txt': 2_000, 'entry-2.txt': 3_000, 'entry-3.txt': 4_000 });
  const names = ['entry-1.txt', 'entry-2.txt', 'entry-3.txt'];
  const stranger = await browser.newContext();
  const outsider = await browser.newContext();
  try {
    await signUp(page, 'Harbour Studio');
    await makeWorkspacePaid(page);
    const collectionId = await createCollection(page, { title: 'Open call', visibility: 'Public' });
    const publicLink = await secretLink(page, 'Open call');
    const link = await createRequest(page, {
      title: 'Send your entry',
      message: 'Three files, please.',
      collection: 'Open call',
      folder: 'Top level of the collection',
    });

    // The uploader adds three files, is told that only Send delivers them, and leaves without pressing it.
    const uploader = await stranger.newPage();
    await uploader.goto(link);
    await uploader.getByLabel('Your name').fill('Ida Early');
    await uploader.getByRole('button', { name: 'Continue' }).click();
    await expect(uploader.getByText(/Your files are delivered only when you press Send\./)).toBeVisible();
    await addFiles(uploader, names.map((n) => files[n]!.path));
    await expectUploadsFinished(uploader);
    await uploader.goto('about:blank');

    // A visitor of the public collection sees none of it: no file, no folder, no bytes.
    const visitor = await outsider.newPage();
    await visitor.goto(publicLink);
    await expect(visitor.getByRole('heading', { name: 'Open call', level: 1 })).toBeVisible();
    await expect(visitor.getByText('There are no files in this collection yet.')).toBeVisible();
    await expect(visitor.getByText(/Ida Early/)).toHaveCount(0);
    await expect(visitor.getByText(/entry-\d\.txt/)).toHaveCount(0);

    // The owner sees them, marked, in the collection and on the request's page.
    const folderName = `Ida Early ${new Date().toISOString().slice(0, 10)}`;
    await page.goto(`/collections/${collectionId}`);
    await contents(page, 'Open call').getByRole('option', { name: folderName }).dblclick();
    const held = contents(page, folderName);
    await expect.poll(() => optionNames(held)).toEqual(names);
    for (const name of names) await expect(held.getByRole('option', { name })).toContainText('Not sent yet');
    await page.goto('/requests');
    await page.getByRole('link', { name: 'Send your entry' }).click();
    const submissions = page.getByRole('region', { name: 'Submissions' });
    await expect(submissions.getByText('Not sent yet', { exact: true })).toBeVisible();
    await expect(submissions.getByRole('button', { name: 'Publish the files of Ida Early' })).toBeVisible();

    // The uploader comes back and sends: now the visitor sees the files.
    await uploader.goto(link);
    await uploader.getByRole('button', { name: 'Send 3 files' }).click();
    await expect(uploader.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    await visitor.reload();
    await expect(visitor.getByText(/^3 files · /)).toBeVisible();
    await visitor.getByRole('link', { name: folderName }).click();
    for (const name of names) await expect(visitor.getByRole('button', { name: `Download ${name}` })).toBeVisible();
    await page.reload();
    await expect(submissions.getByText('Complete', { exact: true })).toBeVisible();
    await expect(submissions.getByText('Not sent yet', { exact: true })).toHaveCount(0);
  } finally {
    await stranger.close();
    await outsider.close();
    cleanup();
  }
});
