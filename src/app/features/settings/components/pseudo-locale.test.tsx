import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCALE_NAMES } from '../../../../contract/locales';
import { applyLocale } from '../../../lib/intl';
import { json, stubFetch } from '../../../test/fetch-stub';
import { account, referral, signedIn } from '../../../test/fixtures';
import { pseudoMessages, wordsOutsideMessages } from '../../../test/pseudo-locale';
import { renderApp } from '../../../test/render-app';

/**
 * Dashboard pages in the pseudo-language (test/pseudo-locale.ts): the shell, its navigation and the pages' own words
 * all come from messages. What is left in plain ASCII letters is a value the page was given (a name, an address, a
 * unit, a browser's name) or a word the code wrote itself, which a translator could never reach.
 */

const values = [
  'Analytical Engines',
  'Ada Lovelace',
  'ada@example.com',
  'ws_1',
  'usr_1',
  'Parcel',
  'Chrome',
  'Linux',
  'GB',
  'MB',
  'KB',
  'bytes',
  'EUR',
  // The referral code and its link, the MCP server's address.
  'K7QX2M9P',
  'localhost',
  'signup?ref',
  '/mcp',
  'npm run admin -- sso add',
  ...Object.values(LOCALE_NAMES),
  // Dates, as Intl writes them in the test's (English) formats.
  ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].flatMap((month) =>
    (['long', 'short'] as const).map((width) => new Intl.DateTimeFormat('en', { month: width }).format(new Date(Date.UTC(2026, month, 15)))),
  ),
];

function unmessaged(): string[] {
  const texts = [document.body.textContent ?? ''];
  for (const element of document.body.querySelectorAll('[aria-label], [title], [alt], [placeholder]')) {
    for (const name of ['aria-label', 'title', 'alt', 'placeholder']) texts.push(element.getAttribute(name) ?? '');
  }
  return texts.flatMap((text) => wordsOutsideMessages(text, values));
}

describe('the dashboard in the pseudo-language', () => {
  beforeEach(() => {
    applyLocale('en', pseudoMessages(), []);
  });
  afterEach(() => {
    applyLocale('en', {}, []);
  });

  it.each(['/settings', '/security', '/transfers'])('%s: every word of the page and its shell is a message', async (path) => {
    stubFetch({
      ...signedIn(),
      'GET /api/v1/me': json(account()),
      'GET /api/v1/me/referral': json(referral),
      'GET /api/dashboard/workspace/single-sign-on': json({ providers: [], domains: [], required: false }),
    });
    renderApp(path);
    const heading = await screen.findByRole('heading', { level: 1 });
    // Wait for the page's own data, past its skeletons.
    await screen.findAllByRole('heading', { level: 2 }).catch(() => []);
    expect(unmessaged()).toEqual([]);
    // One title, one message: not pieces glued by the code.
    expect(heading.textContent).toMatch(/^⟦[^⟦⟧]*⟧$/);
  });
});
