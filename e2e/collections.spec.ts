import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { contents, createCollection, dropFile, newFolder, optionNames, renameLink, secretLink, tool, uploadToCollection, writeImage } from './collection-support';
import { makeFiles, makeWorkspacePaid, signUp } from './support';
import { download, linkInMail, unzipAll } from './transfer-support';

/**
 * Collections as their owner and the people they are shared with live them: an owner on a paid
 * plan fills one with a folder tree, arranges it and invites a guest; the guest signs in with the
 * mailed link in their own browser, browses, previews and downloads; a stranger and, once
 * removed, the guest get the friendly guests-only page. Password and public collections open as
 * their visibility says.
 */

const collectionLink = /https?:\/\/[^\s"'<>]+\/c\/[A-Za-z0-9_-]+/;
const signInLink = /https?:\/\/[^\s"'<>]+\/c\/[A-Za-z0-9_-]+\?guest=[A-Za-z0-9]+/;
const guestsOnly = 'This collection is shared with invited guests';

test('an owner fills and arranges a private collection and invites a guest, who signs in, browses, previews and downloads a folder until removed', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const title = 'Summer shoot';
  const guest = 'ada@example.test';
  // Four levels of folders, the one picked included: shoot › day-1 › raw › selects.
  const { dir, files, cleanup } = makeFiles({
    'shoot/day-1/notes.txt': 4_000,
    'shoot/day-1/raw/frame-001.raw': 300 * 1024,
    'shoot/day-1/raw/selects/frame-002.raw': 150 * 1024,
  });
  const uploaded: Record<string, Buffer> = Object.fromEntries(Object.entries(files).map(([name, file]) => [name, file.bytes]));
  for (const [name, size, colour] of [
    ['shoot/cover.png', [1200, 800], '#f4a261'],
    ['shoot/day-1/beach.jpg', [1600, 1067], '#2a9d8f'],
    ['shoot/day-1/pier.png', [800, 1000], '#264653'],
    ['shoot/day-2/sunset.jpg', [1200, 900], '#e76f51'],
  ] as const) {
    uploaded[name] = await writeImage(path.join(dir, name), size[0], size[1], colour);
  }
  const guestContext = await browser.newContext();
  const strangerContext = await browser.newContext();

  try {
    await signUp(page);
    await makeWorkspacePaid(page);
    await createCollection(page, { title, description: 'Selects for the client.', visibility: 'Private' });
    await expect(page.getByText(/^Nothing here yet\./)).toBeVisible();

    // A dispatched drop event cannot carry a directory tree in Playwright (its DataTransfer has no
    // entries to walk), so the tree goes in through the folder picker, which feeds the same uploader.
    await uploadToCollection(page, { folder: path.join(dir, 'shoot') }, Object.keys(uploaded).length);
    const top = contents(page, title);
    await expect.poll(() => optionNames(top)).toEqual(['shoot']);

    // A new folder at the top, renamed, then moved into "shoot" with the folder picker.
    await newFolder(page, title, 'Selects');
    await expect(top.getByRole('option', { name: 'Selects' })).toHaveAttribute('aria-selected', 'true');

    await tool(page, 'Rename').click();
    const rename = page.getByRole('dialog', { name: 'Rename “Selects”' });
    await rename.getByLabel('New name').fill('Best takes');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await expect.poll(() => optionNames(top)).toEqual(['Best takes', 'shoot']);

    await tool(page, 'Move').click();
    const move = page.getByRole('dialog', { name: 'Move “Best takes”' });
    await move.getByRole('listbox', { name: 'Destination folder' }).getByRole('option', { name: 'shoot', exact: true }).click();
    await move.getByRole('button', { name: 'Move here' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Moved 1 item to “shoot”.' })).toHaveCount(1);
    await expect.poll(() => optionNames(top)).toEqual(['shoot']);

    // Into "shoot" (Enter opens a folder); its cover image becomes the collection's cover.
    await top.getByRole('option', { name: 'shoot' }).click();
    await top.press('Enter');
    const shoot = contents(page, 'shoot');
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(crumbs.getByRole('link', { name: 'shoot', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(crumbs.getByRole('link', { name: title })).not.toHaveAttribute('aria-current');
    await shoot.getByRole('option', { name: 'cover.png' }).click();
    await tool(page, 'Set as cover').click();
    await expect(page.getByRole('status').filter({ hasText: '“cover.png” is the cover now.' })).toHaveCount(1);

    // The changes were the server's, not only the page's: they survive a reload.
    await page.reload();
    await expect.poll(() => optionNames(shoot)).toEqual(['Best takes', 'day-1', 'day-2', 'cover.png']);
    await expect(shoot.getByRole('option', { name: 'cover.png' })).toHaveAccessibleDescription(/· cover$/);

    // A file dropped on the page lands in the folder being viewed (day-1, opened by a double click).
    await shoot.getByRole('option', { name: 'day-1' }).dblclick();
    const day1 = contents(page, 'day-1');
    await expect(day1.getByRole('option', { name: 'notes.txt' })).toBeVisible();
    uploaded['shoot/day-1/shot-list.txt'] = randomBytes(2_000);
    await dropFile(page, 'shot-list.txt', uploaded['shoot/day-1/shot-list.txt']);
    await expect(page.getByTestId('upload-status')).toHaveText(/^The file is uploaded/);
    await expect.poll(() => optionNames(day1)).toEqual(['raw', 'beach.jpg', 'notes.txt', 'pier.png', 'shot-list.txt']);

    // The guest is invited from the Share dialog and mailed the collection's link.
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const share = page.getByRole('dialog', { name: `Share “${title}”` });
    // Password with an empty field: said by the field in words, before anything is sent; the collection stays private.
    await share.getByRole('radio', { name: 'Password' }).check();
    await share.getByRole('button', { name: 'Save visibility' }).click();
    const collectionPassword = share.getByLabel('Collection password');
    await expect(collectionPassword).toHaveAccessibleDescription(/Choose a password for visitors to type\./);
    await expect(collectionPassword).toBeFocused();
    await expect(share).not.toContainText('visibility password');
    await share.getByRole('radio', { name: 'Private' }).check();
    const guests = share.getByRole('region', { name: 'Guests' });
    await guests.getByLabel('Invite guests').fill(guest);
    await guests.getByRole('button', { name: 'Send invites' }).click();
    await expect(guests.getByRole('status').filter({ hasText: 'Invited' })).toHaveText(`Invited ${guest}.`);
    await expect(guests.getByRole('list', { name: 'Guests' }).getByRole('listitem')).toContainText([guest]);
    await share.getByRole('button', { name: 'Close' }).click();
    const link = await linkInMail(page, 'collection.guest_invited', guest, collectionLink);

    // In the guest's own browser: the link asks who they are, and mails a one-time sign-in link.
    const guestPage = await guestContext.newPage();
    await guestPage.goto(link);
    await expect(guestPage.getByRole('heading', { name: guestsOnly, level: 1 })).toBeVisible();
    await guestPage.getByLabel('Email address').fill(guest);
    await guestPage.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await expect(guestPage.getByRole('heading', { name: 'Check your inbox', level: 1 })).toBeVisible();
    const signIn = await linkInMail(page, 'collection.guest_sign_in', guest, signInLink);
    expect(signIn.startsWith(`${link}?guest=`)).toBe(true);

    await guestPage.goto(signIn);
    await expect(guestPage.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await expect(guestPage.getByText(`Signed in as ${guest}`)).toBeVisible();
    // The one-time token leaves the address once traded for the guest's cookie.
    await expect(guestPage).toHaveURL(link);

    // Down into shoot › day-1, where the two photos have previews (made by the worker just after the upload), and the notes show as text.
    await guestPage.getByRole('link', { name: 'shoot', exact: true }).click();
    await expect(guestPage.getByRole('heading', { name: 'shoot', level: 2 })).toBeVisible();
    await guestPage.getByRole('link', { name: 'day-1', exact: true }).click();
    await expect(guestPage.getByRole('heading', { name: 'day-1', level: 2 })).toBeVisible();
    await expect(guestPage.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link')).toHaveText([title, 'shoot']);
    await expect(async () => {
      await guestPage.reload();
      await expect(guestPage.getByRole('button', { name: /^Preview .*\.(jpg|png)$/ })).toHaveCount(2, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });

    await guestPage.getByRole('button', { name: 'Preview beach.jpg' }).click();
    const lightbox = guestPage.getByRole('dialog', { name: 'Preview of beach.jpg' });
    await expect(lightbox).toBeVisible();
    await expect.poll(() => lightbox.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await guestPage.keyboard.press('ArrowRight');
    await expect(guestPage.getByRole('dialog', { name: 'Preview of pier.png' })).toBeVisible();
    await guestPage.keyboard.press('Escape');
    await expect(guestPage.getByRole('dialog')).toHaveCount(0);
    // The notes read as text, from the file's own signed link.
    await guestPage.getByRole('button', { name: 'Preview notes.txt' }).click();
    await expect(guestPage.getByRole('dialog', { name: 'Preview of notes.txt' }).getByLabel('Text of notes.txt')).toBeVisible();
    await guestPage.keyboard.press('Escape');

    // The folder as a zip: its tree below day-1, byte for byte what was uploaded.
    const zip = await download(guestPage, guestPage.getByRole('button', { name: 'Download folder day-1' }));
    expect(zip.download.suggestedFilename()).toBe('day-1.zip');
    const unzipped = unzipAll(zip.file);
    const underDay1 = Object.keys(uploaded)
      .filter((name) => name.startsWith('shoot/day-1/'))
      .map((name) => name.slice('shoot/day-1/'.length));
    expect(Object.keys(unzipped).sort()).toEqual(underDay1.sort());
    for (const name of underDay1) expect(unzipped[name]!.equals(uploaded[`shoot/day-1/${name}`]!), `${name} in the zip`).toBe(true);

    // Someone else with the link sees only that it is for invited guests: nothing of the collection.
    const stranger = await strangerContext.newPage();
    await stranger.goto(link);
    await expect(stranger.getByRole('heading', { name: guestsOnly, level: 1 })).toBeVisible();
    await expect(stranger.getByText(title)).toHaveCount(0);

    // The owner removes the guest; the guest's next click lands on the same friendly page.
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await guests.getByRole('button', { name: `Remove ${guest}` }).click();
    await page
      .getByRole('alertdialog', { name: `Remove ${guest}?` })
      .getByRole('button', { name: 'Remove guest' })
      .click();
    await expect(guests.getByRole('list', { name: 'Guests' })).toHaveCount(0);
    await expect(guests).toContainText('No guests yet.');

    await guestPage.getByRole('link', { name: 'raw', exact: true }).click();
    await expect(guestPage.getByRole('heading', { name: guestsOnly, level: 1 })).toBeVisible();
    await expect(guestPage.getByText(`Signed in as ${guest}`)).toHaveCount(0);
    await expect(guestPage.getByText('frame-001.raw')).toHaveCount(0);
  } finally {
    cleanup();
    await guestContext.close();
    await strangerContext.close();
  }
});

test('a password collection opens with its password after a wrong one, and a public one opens for anyone, at the readable link its owner gave it', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const { files, cleanup } = makeFiles({ 'prices.pdf': 120 * 1024, 'contacts.csv': 6_000, 'brief.txt': 3_000 });
  const visitorContext = await browser.newContext();
  try {
    await signUp(page);
    await makeWorkspacePaid(page);
    await createCollection(page, { title: 'Price list', visibility: 'Password', password: 'open sesame' });
    await uploadToCollection(page, { files: [files['prices.pdf']!.path] }, 1);
    const protectedLink = await secretLink(page, 'Price list');

    await createCollection(page, { title: 'Press kit', description: 'Contacts and the brief.', visibility: 'Public' });
    await uploadToCollection(page, { files: [files['contacts.csv']!.path, files['brief.txt']!.path] }, 2);
    const publicLink = await secretLink(page, 'Press kit');
    // A readable name for the link: the one already sent keeps working, redirected to it.
    const readable = `press-kit-${Date.now().toString(36)}`;
    const readableLink = await renameLink(page, 'Press kit', readable);

    const visitor = await visitorContext.newPage();
    await visitor.goto(protectedLink);
    await expect(visitor.getByRole('heading', { name: 'This collection is protected', level: 1 })).toBeVisible();
    await expect(visitor.getByText('Price list')).toHaveCount(0);
    const password = visitor.getByLabel('Password');
    await password.fill('open sesam');
    await visitor.getByRole('button', { name: 'Unlock' }).click();
    await expect(visitor.getByRole('alert')).toHaveText(/^That password isn't right/);
    await password.fill('open sesame');
    await visitor.getByRole('button', { name: 'Unlock' }).click();
    await expect(visitor.getByRole('heading', { name: 'Price list', level: 1 })).toBeVisible();
    const prices = await download(visitor, visitor.getByRole('button', { name: 'Download prices.pdf' }));
    expect(prices.download.suggestedFilename()).toBe('prices.pdf');
    expect(prices.bytes.equals(files['prices.pdf']!.bytes)).toBe(true);

    await visitor.goto(publicLink);
    await expect(visitor).toHaveURL(readableLink);
    await expect(visitor.getByRole('heading', { name: 'Press kit', level: 1 })).toBeVisible();
    await expect(visitor.getByText('Contacts and the brief.')).toBeVisible();
    const all = await download(visitor, visitor.getByRole('button', { name: /^Download all \(.+ zip\)$/ }));
    expect(all.download.suggestedFilename()).toBe('Press kit.zip');
    const unzipped = unzipAll(all.file);
    expect(Object.keys(unzipped).sort()).toEqual(['brief.txt', 'contacts.csv']);
    expect(unzipped['brief.txt']!.equals(files['brief.txt']!.bytes)).toBe(true);
    expect(unzipped['contacts.csv']!.equals(files['contacts.csv']!.bytes)).toBe(true);

    // A link that never existed says only that it doesn't work.
    await visitor.goto(publicLink.replace(/\/c\/[^/]+$/, '/c/doesNotExist123'));
    await expect(visitor.getByRole('heading', { name: "This link doesn't work", level: 1 })).toBeVisible();
  } finally {
    cleanup();
    await visitorContext.close();
  }
});
