import fs from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';

export type VisibilityChoice = 'Private' | 'Public' | 'Password';

/** Through the grid's "New collection" dialog; lands in the new collection's browser and returns its id. */
export async function createCollection(page: Page, details: { title: string; description?: string; visibility: VisibilityChoice; password?: string }) {
  await page.goto('/collections');
  await page.getByRole('button', { name: 'New collection' }).click();
  const dialog = page.getByRole('dialog', { name: 'New collection' });
  await dialog.getByLabel('Title').fill(details.title);
  if (details.description) await dialog.getByLabel('Description (optional)').fill(details.description);
  // A radio's name is its label and the line that explains it.
  await dialog
    .getByRole('group', { name: 'Who can open it' })
    .getByRole('radio', { name: new RegExp(`^${details.visibility}`) })
    .check();
  if (details.password) await dialog.getByLabel('Collection password').fill(details.password);
  await dialog.getByRole('button', { name: 'Create collection' }).click();
  await expect(page).toHaveURL(/\/collections\/col_[A-Za-z0-9]+$/);
  await expect(page.getByRole('heading', { name: details.title, level: 1 })).toBeVisible();
  return new URL(page.url()).pathname.split('/').at(-1)!;
}

/** The browser's listbox of what the folder being viewed holds ("Contents of <title or folder>"). */
export const contents = (page: Page, of: string): Locator => page.getByRole('listbox', { name: `Contents of ${of}` });

/** The names of a listbox's options in order (an option's text holds its details too). */
export const optionNames = (listbox: Locator) =>
  listbox.getByRole('option').evaluateAll((options) => options.map((option) => option.getAttribute('aria-label')));

/** The browser's toolbar button for the selection. */
export const tool = (page: Page, name: string): Locator => page.getByRole('group', { name: 'Actions' }).getByRole('button', { name, exact: true });

/**
 * Picks files (the "Upload files" button's input) or a whole folder (the "Upload folder" one, with
 * webkitdirectory) into the folder being viewed, and waits until the uploads panel says all
 * `expectedTotal` files it holds are up. The panel keeps finished files listed, so the count
 * is what tells this batch's end from the previous one's.
 */
/** Makes a folder named `name` in the folder shown (`where` is its name, as the dialog's title says), through the toolbar. */
export async function newFolder(page: Page, where: string, name: string) {
  await tool(page, 'New folder').click();
  const dialog = page.getByRole('dialog', { name: `New folder in “${where}”` });
  await dialog.getByLabel('Folder name').fill(name);
  await dialog.getByRole('button', { name: 'Create folder' }).click();
  await expect(dialog).toHaveCount(0);
}

export async function uploadToCollection(page: Page, what: { files: string[] } | { folder: string }, expectedTotal: number) {
  if ('folder' in what) await page.getByTestId('upload-folder-input').setInputFiles(what.folder);
  else await page.getByTestId('upload-files-input').setInputFiles(what.files);
  const done = expectedTotal === 1 ? 'The file is uploaded' : `All ${expectedTotal} files are uploaded`;
  await expect(page.getByTestId('upload-status')).toContainText(done, { timeout: 60_000 });
}

/**
 * Drops one file on the collection page as a person dragging it from their desktop would: the
 * drag events with a DataTransfer made in the page. (A directory tree cannot be made that way.)
 */
export async function dropFile(page: Page, name: string, bytes: Buffer) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, data }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], name, { type: 'text/plain' }));
      return transfer;
    },
    { name, data: [...bytes] },
  );
  const main = page.getByRole('main');
  for (const type of ['dragenter', 'dragover', 'drop']) await main.dispatchEvent(type, { dataTransfer });
}

/** The collection's secret link, as the owner copies it from the Share dialog (closed again after). */
export async function secretLink(page: Page, title: string): Promise<string> {
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Share “${title}”` });
  const link = await dialog.getByRole('region', { name: 'Link' }).getByRole('textbox', { name: /^(Secret|Collection) link$/ }).inputValue();
  expect(link).toMatch(/^https?:\/\/[^/]+\/c\/[A-Za-z0-9_-]+$/);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  return link;
}

/**
 * Renames the open collection's link to `slug` in its share dialog, as an owner does, and returns the new link.
 */
export async function renameLink(page: Page, title: string, slug: string): Promise<string> {
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Share “${title}”` });
  const field = dialog.getByRole('textbox', { name: 'Readable link' });
  // Suggested from the title until the owner types their own.
  await expect(field).toHaveValue(title.toLowerCase().replace(/[^a-z0-9]+/g, '-'));
  await field.fill(slug);
  await dialog.getByRole('button', { name: 'Rename link' }).click();
  await expect(dialog.getByText('Renamed. Links sent before still open the collection.')).toBeVisible();
  const link = await dialog.getByRole('textbox', { name: 'Collection link' }).inputValue();
  expect(link).toMatch(new RegExp(`/c/${slug}$`));
  await dialog.getByRole('button', { name: 'Close' }).click();
  return link;
}

/** A real image of one colour, PNG or JPEG by the file's extension; returns its bytes. */
export async function writeImage(file: string, width: number, height: number, colour: string): Promise<Buffer> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const image = sharp({ create: { width, height, channels: 3, background: colour } });
  const bytes = await (file.endsWith('.png') ? image.png() : image.jpeg({ quality: 80 })).toBuffer();
  fs.writeFileSync(file, bytes);
  return bytes;
}

/**
 * A made-up landscape photo (sky, sun, two hills, water) drawn from an SVG, for screenshots that
 * should look like a real collection rather than flat colour blocks.
 */
export async function writeLandscape(file: string, palette: { sky: readonly [string, string]; sun: string; hills: readonly [string, string]; water: string }) {
  const [w, h] = [1600, 1067];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${palette.sky[0]}"/><stop offset="1" stop-color="${palette.sky[1]}"/></linearGradient></defs>
    <rect width="${w}" height="${h}" fill="url(#sky)"/>
    <circle cx="${w * 0.68}" cy="${h * 0.34}" r="${h * 0.11}" fill="${palette.sun}" opacity="0.95"/>
    <path d="M0 ${h * 0.62} Q ${w * 0.22} ${h * 0.4} ${w * 0.48} ${h * 0.6} T ${w} ${h * 0.55} V ${h} H 0 Z" fill="${palette.hills[0]}"/>
    <path d="M0 ${h * 0.72} Q ${w * 0.35} ${h * 0.58} ${w * 0.62} ${h * 0.7} T ${w} ${h * 0.68} V ${h} H 0 Z" fill="${palette.hills[1]}"/>
    <rect y="${h * 0.8}" width="${w}" height="${h * 0.2}" fill="${palette.water}"/>
  </svg>`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toFile(file);
}
