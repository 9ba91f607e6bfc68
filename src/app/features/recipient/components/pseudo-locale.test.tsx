import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DownloadSession, PublicTransfer } from '../../../../contract/public';
import { LOCALE_NAMES } from '../../../../contract/locales';
import { formatDateTime, formatRelativeTime } from '../../../lib/format';
import { applyLocale } from '../../../lib/intl';
import { apiError, json, stubFetch } from '../../../test/fetch-stub';
import { pseudoMessages, wordsOutsideMessages } from '../../../test/pseudo-locale';
import { renderApp } from '../../../test/render-app';

/**
 * The recipient's pages in the pseudo-language (test/pseudo-locale.ts): every word on them comes from a message, and
 * every sentence is one message. What is left in plain ASCII letters is a value the page was given (a name, a size
 * unit) or a word the code wrote itself, which a translator could never reach.
 */

const files: PublicTransfer['files'] = [
  { id: 'fil_1', name: 'ceremony.jpg', path: null, sizeBytes: 2_500_000, mimeType: 'image/jpeg', crc32: '0a1b2c3d', sealedMeta: null, sealedThumb: null, thumbnailUrl: 'http://localhost:8080/thumb/t', scanPending: false },
  { id: 'fil_2', name: 'notes.pdf', path: 'docs/2026', sizeBytes: 1_200, mimeType: 'application/pdf', crc32: '0a1b2c3d', sealedMeta: null, sealedThumb: null, thumbnailUrl: null, scanPending: true },
];
const transfer: PublicTransfer = {
  title: null,
  message: 'Hi Bob',
  workspaceName: 'Analytical Engines',
  expiresAt: new Date(Date.now() + 3 * 24 * 3_600_000).toISOString(),
  hasPassword: false,
  e2ee: false,
  transferId: null,
  e2eeMeta: null,
  files,
  totalBytes: 2_501_200,
  zip: { name: 'files.zip', sizeBytes: 2_501_500 },
};
const session: DownloadSession = {
  sessionId: 'dls_1',
  files: [{ id: 'fil_1', url: 'http://localhost:8080/dl/1' }],
  zip: { url: 'http://localhost:8080/dl/zip' },
  expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
};
/**
 * What the page is given to show: names, the message, sizes with their units, dates as `Intl` writes them (in
 * English here), and each language of the menu by its own name.
 */
const values = () => [
  'Analytical Engines',
  'Hi Bob',
  'ceremony.jpg',
  'notes.pdf',
  'docs/2026',
  'JPG',
  'PDF',
  'Parcel',
  'MB',
  'KB',
  formatDateTime(transfer.expiresAt),
  formatRelativeTime(transfer.expiresAt),
  ...Object.values(LOCALE_NAMES),
];

/** Every text the page shows or says (text, labels, titles, alternatives), with what no message made. */
function unmessaged(): string[] {
  const texts = [document.body.textContent ?? ''];
  for (const element of document.body.querySelectorAll('[aria-label], [title], [alt], [placeholder]')) {
    for (const name of ['aria-label', 'title', 'alt', 'placeholder']) texts.push(element.getAttribute(name) ?? '');
  }
  return texts.flatMap((text) => wordsOutsideMessages(text, values()));
}

describe('the recipient’s pages in the pseudo-language', () => {
  beforeEach(() => {
    applyLocale('en', pseudoMessages(), []);
  });
  afterEach(() => {
    applyLocale('en', {}, []);
  });

  it('show a transfer, its previews and files with every word from a message', async () => {
    stubFetch({ 'GET /api/public/transfers/:slug': json(transfer), 'POST /api/public/transfers/:slug/sessions': json(session, 201) });
    renderApp('/t/abc123');
    await screen.findByRole('heading', { level: 1 });
    await screen.findAllByRole('link', { name: /ceremony\.jpg/ });
    expect(unmessaged()).toEqual([]);
    // One sentence, one message: the heading is a single pseudo-sentence, not pieces glued by the code.
    expect(screen.getByRole('heading', { level: 1 }).textContent).toMatch(/^⟦[^⟦⟧]*⟧$/);
  });

  it('say a link does not work, and ask for a password, with every word from a message', async () => {
    stubFetch({ 'GET /api/public/transfers/:slug': apiError(404, 'not_found', 'Not found') });
    const gone = renderApp('/t/missing');
    await screen.findByRole('heading', { level: 1 });
    expect(unmessaged()).toEqual([]);
    gone.unmount();

    stubFetch({ 'GET /api/public/transfers/:slug': apiError(401, 'password_required', 'This transfer is protected by a password.') });
    renderApp('/t/locked');
    await screen.findByLabelText(/.+/, { selector: 'input[type=password]' });
    expect(unmessaged()).toEqual([]);
  });
});
