import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublicTransfer } from '../../../../contract/public';
import { ciphertextSize, deriveLinkKeys, linkFragment, newLinkKey, newSalt, sealFileMeta, sealThumbnail, sealTransferMeta, type ManifestEntry } from '../../../../crypto';
import { json, stubFetch } from '../../../test/fetch-stub';
import { renderApp } from '../../../test/render-app';

const hour = 3_600_000;
const transferId = 'tr_e2ee_1';
/** The smallest PNG: a 1×1 image, so the thumbnail's signature is a real one. */
const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));

interface PlainFile {
  id: string;
  name: string;
  type: string;
  size: number;
  thumbnail?: Uint8Array;
}

/** A sealed transfer made with src/crypto as the sender's browser would, and the link fragment that opens it. */
async function sealedTransfer(files: PlainFile[], options: { note?: { title?: string; message?: string }; manifest?: (entries: ManifestEntry[]) => ManifestEntry[] } = {}) {
  const key = newLinkKey();
  const keys = await deriveLinkKeys(key);
  const salts = new Map(files.map((f) => [f.id, newSalt()]));
  const entries = files.map((f) => ({ id: f.id, salt: salts.get(f.id)!, size: f.size }));
  const e2eeMeta = await sealTransferMeta(keys, transferId, { manifest: options.manifest?.(entries) ?? entries, note: options.note ?? null });
  const publicFiles = await Promise.all(
    files.map(async (f) => ({
      id: f.id,
      name: `file-${f.id}`,
      path: null,
      sizeBytes: ciphertextSize(f.size),
      mimeType: 'application/octet-stream',
      crc32: '0a1b2c3d',
      sealedMeta: await sealFileMeta(keys, transferId, f.id, { name: f.name, type: f.type, size: f.size, salt: salts.get(f.id)! }),
      sealedThumb: f.thumbnail ? await sealThumbnail(keys, transferId, f.id, f.thumbnail) : null,
      thumbnailUrl: null,
      scanPending: false,
    })),
  );
  const transfer: PublicTransfer = {
    title: null,
    message: null,
    workspaceName: 'Analytical Engines',
    expiresAt: new Date(Date.now() + 3 * 24 * hour).toISOString(),
    hasPassword: false,
    e2ee: true,
    transferId,
    e2eeMeta,
    files: publicFiles,
    totalBytes: publicFiles.reduce((sum, f) => sum + f.sizeBytes, 0),
    zip: null,
  };
  return { transfer, fragment: `#${linkFragment(key)}`, key };
}

const session = { sessionId: 'dls_1', files: [], zip: null, expiresAt: new Date(Date.now() + 12 * hour).toISOString() };

/** Opens the page at /t/abc123 with `fragment` in the real window location (where the page reads the key). */
function open(transfer: PublicTransfer, fragment: string) {
  window.history.replaceState(null, '', `/t/abc123${fragment}`);
  const server = stubFetch({
    'GET /api/public/transfers/:slug': json(transfer),
    'POST /api/public/transfers/:slug/sessions': json({ ...session, files: transfer.files.map((f) => ({ id: f.id, url: `http://localhost:8080/dl/tok-${f.id}` })) }, 201),
  });
  renderApp(`/t/abc123${fragment}`);
  return server;
}

const files: PlainFile[] = [
  { id: 'fil_1', name: 'ceremony.jpg', type: 'image/jpeg', size: 2_500_000, thumbnail: png },
  { id: 'fil_2', name: 'docs/2026/notes.pdf', type: 'application/pdf', size: 1_200 },
];

afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

describe('Recipient page of an end-to-end encrypted transfer', () => {
  it('decrypts the title, message, names, folders and thumbnails in the browser, then starts the visit', async () => {
    const sealed = await sealedTransfer(files, { note: { title: 'Wedding photos', message: 'Hi Bob,\nhere they are.' } });
    const server = open(sealed.transfer, sealed.fragment);

    expect(await screen.findByRole('heading', { level: 1, name: 'Wedding photos' })).toBeInTheDocument();
    expect(screen.getByText(/here they are/)).toBeInTheDocument();
    expect(screen.getByText(/End-to-end encrypted/)).toBeInTheDocument();
    const rows = within(screen.getByRole('region', { name: 'Files' })).getAllByRole('listitem');
    expect(within(rows[0]!).getByText('ceremony.jpg', { selector: 'p > bdi' })).toBeInTheDocument();
    expect(within(rows[0]!).getByText('JPG image · 2.5 MB')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('notes.pdf', { selector: 'p > bdi' })).toBeInTheDocument();
    expect(within(rows[1]!).getByText('docs/2026/')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('PDF document · 1.2 KB')).toBeInTheDocument();
    expect(screen.queryByText('file-fil_1')).not.toBeInTheDocument();

    const preview = await screen.findByRole('img', { name: 'ceremony.jpg' });
    expect(preview.getAttribute('src')).toMatch(/^blob:/);
    expect(screen.getByRole('button', { name: 'Download ceremony.jpg' })).toBeEnabled();
    expect(screen.getByRole('button', { name: /^Download all/ })).toHaveTextContent('zip');

    await expect.poll(() => server.requestsTo('POST /api/public/transfers/abc123/sessions').length).toBe(1);
    // The key is in no request: not in a URL, a header or a body.
    const secret = sealed.fragment.slice(4);
    for (const request of server.requests) {
      expect(request.url.href).not.toContain(secret);
      expect(JSON.stringify([...request.headers.entries()])).not.toContain(secret);
      expect(JSON.stringify(request.body ?? null)).not.toContain(secret);
    }
  });

  it('shows decrypted names with markup as plain text', async () => {
    const sealed = await sealedTransfer([{ id: 'fil_1', name: '<img src=x onerror=alert(1)>.txt', type: 'text/plain', size: 5 }], {
      note: { title: '<b>Hello</b>', message: '<script>alert(1)</script>' },
    });
    open(sealed.transfer, sealed.fragment);
    expect(await screen.findByRole('heading', { level: 1, name: '<b>Hello</b>' })).toBeInTheDocument();
    expect(screen.getByText('<script>alert(1)</script>')).toBeInTheDocument();
    expect(screen.getAllByText('<img src=x onerror=alert(1)>.txt').length).toBeGreaterThan(0);
    expect(document.body.querySelector('b, script, img[src="x"]')).toBeNull();
  });

  it('says the key is wrong when one character of it changed, and starts no visit', async () => {
    const sealed = await sealedTransfer(files);
    const middle = Math.floor(sealed.fragment.length / 2);
    const changed = sealed.fragment[middle] === 'A' ? 'B' : 'A';
    const server = open(sealed.transfer, `${sealed.fragment.slice(0, middle)}${changed}${sealed.fragment.slice(middle + 1)}`);

    expect(await screen.findByRole('heading', { level: 1, name: "This link's key is wrong" })).toBeInTheDocument();
    expect(screen.queryByText('ceremony.jpg')).not.toBeInTheDocument();
    expect(server.requestsTo('POST /api/public/transfers/abc123/sessions')).toHaveLength(0);
  });

  it('says the link is incomplete when it has no key, and a cut key is wrong', async () => {
    const sealed = await sealedTransfer(files);
    const server = open(sealed.transfer, '');
    expect(await screen.findByRole('heading', { level: 1, name: 'This link is incomplete' })).toBeInTheDocument();
    cleanup();

    open(sealed.transfer, sealed.fragment.slice(0, -5));
    expect(await screen.findByRole('heading', { level: 1, name: "This link's key is wrong" })).toBeInTheDocument();
    expect(server.requestsTo('POST /api/public/transfers/abc123/sessions')).toHaveLength(0);
  });

  it('refuses the downloads when the server lists other files than the sender sealed', async () => {
    // The sender sealed only fil_1: fil_2 was added by the server.
    const sealed = await sealedTransfer(files, { manifest: (entries) => entries.slice(0, 1) });
    const server = open(sealed.transfer, sealed.fragment);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("Downloads are turned off: these aren't the files the sender sent.");
    expect(alert).toHaveTextContent('1 file added');
    expect(screen.getByRole('button', { name: 'Download ceremony.jpg' })).toBeDisabled();
    expect(screen.getByRole('button', { name: /^Download all/ })).toBeDisabled();
    expect(server.requestsTo('POST /api/public/transfers/abc123/sessions')).toHaveLength(0);
  });

  it('refuses the downloads when a file was swapped for another under its id', async () => {
    const sealed = await sealedTransfer(files);
    const [first, second] = sealed.transfer.files;
    // The server serves the second file's sealed metadata and bytes under the first one's id: it does not even open there.
    const swapped = { ...sealed.transfer, files: [{ ...second!, id: first!.id }, second!] };
    open(swapped, sealed.fragment);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('1 file changed');
  });
});
