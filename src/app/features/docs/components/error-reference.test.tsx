import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorCodes, errorStatus } from '../../../../contract/error-codes';
import { stubFetch } from '../../../test/fetch-stub';
import { renderApp } from '../../../test/render-app';

describe('errors page', () => {
  it('has a section for every error code, with the code as its id, its status and its explanation', async () => {
    stubFetch({});
    renderApp('/docs/errors#rate_limited');

    expect(await screen.findByRole('heading', { name: 'Errors', level: 1 })).toBeInTheDocument();
    for (const code of errorCodes) {
      const section = document.getElementById(code);
      expect(section, code).not.toBeNull();
      expect(within(section!).getByRole('heading', { level: 2 })).toHaveTextContent(`${code}HTTP ${errorStatus[code]}`);
    }
    const invalid = document.getElementById('invalid_request')!;
    expect(within(invalid).getByText('details.fields').tagName).toBe('CODE');
  });

  it('links every code from the list at the top', async () => {
    stubFetch({});
    renderApp('/docs/errors');

    const list = await screen.findByRole('navigation', { name: 'Error codes' });
    expect(within(list).getAllByRole('link')).toHaveLength(errorCodes.length);
    expect(within(list).getByRole('link', { name: 'upgrade_required' })).toHaveAttribute('href', '/docs/errors#upgrade_required');
  });
});
