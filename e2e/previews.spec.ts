import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import sharp from 'sharp';
import { pdfOf } from '../src/server/test/media-files';
import { readmePicture, screenshotsInBothThemes, signUp } from './support';
import { expectNoSeriousA11yViolations, sendTransfer } from './transfer-support';

/**
 * A recipient of photos sees them before downloading: thumbnails made by the server right after
 * the upload, and a lightbox they can use with the keyboard, in both themes.
 */
test('the recipient sees image thumbnails and pages through them in a lightbox', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-e2e-previews-'));
  const beach = path.join(dir, 'beach.jpg');
  const sunset = path.join(dir, 'sunset.png');
  const notes = path.join(dir, 'notes.pdf');
  await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#1e90ff' } }).jpeg().toFile(beach);
  await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#ff7f50' } }).png().toFile(sunset);
  fs.writeFileSync(notes, '%PDF-1.4\n% not much of a document\n');
  const recipientContext = await browser.newContext();
  try {
    await signUp(page);
    const link = await sendTransfer(page, { files: [beach, sunset, notes], title: 'Holiday' });

    const recipient = await recipientContext.newPage();
    await recipient.goto(link);
    const grid = recipient.getByRole('region', { name: 'Previews' });
    // Previews are made within moments of the upload; the page shows them once they exist.
    await expect(async () => {
      await recipient.reload();
      await expect(grid.getByRole('img')).toHaveCount(2, { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    for (const img of await grid.getByRole('img').all()) {
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
      expect(await img.evaluate((el: HTMLImageElement) => Math.max(el.naturalWidth, el.naturalHeight))).toBeLessThanOrEqual(480);
    }
    await expect(grid.getByRole('img', { name: 'notes.pdf' })).toHaveCount(0);
    // A file named .pdf that is not one: its tile opens a viewer that says so, and the download is untouched.
    // (The page is served rendered: once its session's links are there, it answers clicks.)
    await expect(recipient.getByRole('link', { name: /Download all/ })).toBeVisible();
    await grid.getByRole('button', { name: 'Open the preview of notes.pdf' }).click();
    const broken = recipient.getByRole('dialog', { name: 'Preview of notes.pdf' });
    await expect(broken.getByText('notes.pdf cannot be shown here')).toBeVisible();
    await expect(broken.getByRole('link', { name: 'Download notes.pdf' })).toBeVisible();
    await recipient.keyboard.press('Escape');
    await expectNoSeriousA11yViolations(recipient, 'the recipient page with previews, light');

    // Keyboard only: open the first, go to the next, close; focus returns to the thumbnail.
    const first = grid.getByRole('button', { name: 'Open the preview of beach.jpg' });
    await first.focus();
    await recipient.keyboard.press('Enter');
    await expect(recipient.getByRole('dialog', { name: 'Preview of beach.jpg' })).toBeVisible();
    await recipient.keyboard.press('ArrowRight');
    const second = recipient.getByRole('dialog', { name: 'Preview of sunset.png' });
    await expect(second).toBeVisible();
    await expect(second.getByText('2 of 3')).toBeVisible();
    await expect(second.getByRole('link', { name: 'Download sunset.png' })).toBeVisible();
    await expectNoSeriousA11yViolations(recipient, 'the lightbox, light');
    await recipient.keyboard.press('Escape');
    await expect(recipient.getByRole('dialog')).toHaveCount(0);
    await expect(first).toBeFocused();

    // Dark.
    await recipient.getByRole('button', { name: 'Dark mode' }).click();
    await expectNoSeriousA11yViolations(recipient, 'the recipient page with previews, dark');
    await first.click();
    await expect(recipient.getByRole('dialog', { name: 'Preview of beach.jpg' })).toBeVisible();
    await expectNoSeriousA11yViolations(recipient, 'the lightbox, dark');
  } finally {
    await recipientContext.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * What is not an image previews too (issue 37): videos made by ffmpeg (WebM, and an H.264 MP4 whose index is at
 * its end) play in the lightbox and seek to their middle by Range requests (nothing downloads the whole file), a
 * sound plays, a PDF pages through, and a CSV reads as a table; all from the transfer's own signed links. The
 * sender's page previews the same files from the owner's own links.
 */
test('the recipient sees posters, plays videos and seeks in them, plays a sound, pages through a PDF and reads a CSV; so does the sender', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-e2e-media-'));
  const clip = path.join(dir, 'clip.webm');
  const movie = path.join(dir, 'movie.mp4');
  const tone = path.join(dir, 'tone.mp3');
  const doc = path.join(dir, 'two-pages.pdf');
  const table = path.join(dir, 'prices.csv');
  // Twenty seconds of a test pattern with noise (which does not compress) at 6 Mbit/s, 15 MB: the
  // player loads only the start, and asks for the later part when it seeks there.
  const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...args]);
  ffmpeg('-f', 'lavfi', '-i', 'testsrc=duration=20:size=640x360:rate=25,noise=alls=60:allf=t', '-c:v', 'libvpx', '-b:v', '6M', '-minrate', '6M', '-maxrate', '6M', '-deadline', 'realtime', '-cpu-used', '8', clip);
  // As a camera or an editor writes it by default: H.264, its index (moov) after the pictures, so the player asks for the end first.
  ffmpeg('-f', 'lavfi', '-i', 'testsrc=duration=4:size=320x240:rate=25', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', movie);
  ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-c:a', 'libmp3lame', '-b:a', '64k', tone);
  fs.writeFileSync(doc, pdfOf(['First page', 'Second page']));
  fs.writeFileSync(table, 'item,price\n"Tea, green",3.50\n<b>Coffee</b>,2.80\n');
  const recipientContext = await browser.newContext();
  try {
    await signUp(page);
    const link = await sendTransfer(page, { files: [clip, movie, tone, doc, table], title: 'Media' });
    const recipient = await recipientContext.newPage();
    const ranges: string[] = [];
    recipient.on('request', (request) => {
      if (request.url().includes('/dl/') && request.headers().range) ranges.push(request.headers().range!);
    });
    await recipient.goto(link);
    const grid = recipient.getByRole('region', { name: 'Previews' });
    // The worker makes the video's poster, the sound's waveform and the PDF's first page within seconds of the upload.
    const tiles = ['clip.webm', 'movie.mp4', 'tone.mp3', 'two-pages.pdf'].map((name) => grid.getByRole('button', { name: `Open the preview of ${name}` }).locator('img'));
    await expect(async () => {
      await recipient.reload();
      for (const tile of tiles) await expect(tile).toHaveCount(1, { timeout: 500 });
    }).toPass({ timeout: 30_000 });
    for (const tile of tiles) await expect.poll(() => tile.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
    // The page is served rendered; once its session's links are there, it answers clicks.
    await expect(recipient.getByRole('link', { name: /Download all/ })).toBeVisible();

    await grid.getByRole('button', { name: 'Open the preview of clip.webm' }).click();
    const lightbox = recipient.getByRole('dialog', { name: 'Preview of clip.webm' });
    const video = lightbox.getByLabel('clip.webm');
    // Its poster shows until it plays.
    expect(await video.getAttribute('poster')).toMatch(/\/thumb\//);
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
    expect(await video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(20);
    await video.evaluate(
      (v: HTMLVideoElement) =>
        new Promise((resolve) => {
          v.addEventListener('seeked', resolve, { once: true });
          v.currentTime = 15;
        }),
    );
    await video.evaluate((v: HTMLVideoElement) => v.play().then(() => new Promise((r) => setTimeout(r, 300))));
    expect(await video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(15);
    // The middle came by a Range request from past the start of the file.
    expect(ranges.some((r) => /^bytes=[1-9]\d*-/.test(r)), ranges.join(' ')).toBe(true);
    await expectNoSeriousA11yViolations(recipient, 'the lightbox playing a video, light');
    await screenshotsInBothThemes(recipient, 'preview-video', 'PREVIEW_SCREENSHOTS');
    await readmePicture(recipient, 'preview-video');

    // The next file, by the arrow key once the player lets go of focus: the H.264 MP4, its middle by a Range request too.
    await lightbox.getByRole('button', { name: 'Next file' }).click();
    const mp4 = recipient.getByRole('dialog', { name: 'Preview of movie.mp4' }).getByLabel('movie.mp4');
    await playFromTheMiddle(mp4, 4);
    expect(ranges.filter((r) => /^bytes=[1-9]\d*-/.test(r)).length, ranges.join(' ')).toBeGreaterThanOrEqual(2);

    await recipient.keyboard.press('Escape');
    await grid.getByRole('button', { name: 'Open the preview of tone.mp3' }).click();
    const audio = recipient.getByRole('dialog', { name: 'Preview of tone.mp3' }).getByLabel('tone.mp3');
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.readyState)).toBeGreaterThanOrEqual(1);
    expect(await audio.evaluate((a: HTMLAudioElement) => Math.round(a.duration))).toBe(2);
    await audio.evaluate((a: HTMLAudioElement) => a.play());
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThan(0);

    // The arrow keys move on (the player no longer has focus once the next file shows).
    await recipient.keyboard.press('Escape');
    await grid.getByRole('button', { name: 'Open the preview of two-pages.pdf' }).click();
    const pdf = recipient.getByRole('dialog', { name: 'Preview of two-pages.pdf' });
    await expect(pdf.getByText('Page 1 of 2')).toBeVisible();
    await expect.poll(() => pdf.locator('canvas').evaluate((c: HTMLCanvasElement) => c.width)).toBeGreaterThan(300);
    await pdf.getByRole('button', { name: 'Next page' }).click();
    await expect(pdf.getByText('Page 2 of 2')).toBeVisible();
    await pdf.getByRole('button', { name: 'Zoom in' }).click();
    await expect(pdf.getByText('125%')).toBeVisible();
    await expectNoSeriousA11yViolations(recipient, 'the lightbox showing a PDF, light');
    await screenshotsInBothThemes(recipient, 'preview-pdf', 'PREVIEW_SCREENSHOTS');
    await readmePicture(recipient, 'preview-pdf');

    await recipient.keyboard.press('Escape');
    await grid.getByRole('button', { name: 'Open the preview of prices.csv' }).click();
    const csv = recipient.getByRole('dialog', { name: 'Preview of prices.csv' });
    await expect(csv.getByRole('columnheader')).toHaveText(['item', 'price']);
    await expect(csv.getByRole('cell')).toHaveText(['Tea, green', '3.50', '<b>Coffee</b>', '2.80']);
    await screenshotsInBothThemes(recipient, 'preview-csv', 'PREVIEW_SCREENSHOTS');

    // The sender's own page: each file's thumbnail opens the same lightbox, from the owner's links (no receipt).
    await page.goto('/transfers');
    await page.getByRole('link', { name: 'Media' }).first().click();
    const files = page.getByRole('group', { name: 'Files (scrolls sideways)' });
    const poster = files.getByRole('button', { name: 'Preview movie.mp4' }).locator('img');
    await expect.poll(() => poster.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
    await expect(files.getByRole('button', { name: /^Preview / })).toHaveCount(5);
    await files.getByRole('button', { name: 'Preview movie.mp4' }).click();
    const owners = page.getByRole('dialog', { name: 'Preview of movie.mp4' });
    await expect(owners.getByText('2 of 5')).toBeVisible();
    await playFromTheMiddle(owners.getByLabel('movie.mp4'), 4);
    await expectNoSeriousA11yViolations(page, 'the sender’s lightbox playing a video');
    await screenshotsInBothThemes(page, 'transfer-page-preview', 'PREVIEW_SCREENSHOTS');
    await page.keyboard.press('Escape');
    await expect(owners).toBeHidden();
    await screenshotsInBothThemes(page, 'transfer-page-files', 'PREVIEW_SCREENSHOTS');
  } finally {
    await recipientContext.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** Waits for the player to know the video (`seconds` long), seeks to its middle and plays on from there. */
async function playFromTheMiddle(video: Locator, seconds: number) {
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
  expect(await video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(seconds);
  await video.evaluate(
    (v: HTMLVideoElement, middle) =>
      new Promise((resolve) => {
        v.addEventListener('seeked', resolve, { once: true });
        v.currentTime = middle;
      }),
    seconds / 2,
  );
  await video.evaluate((v: HTMLVideoElement) => v.play());
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(seconds / 2);
}
