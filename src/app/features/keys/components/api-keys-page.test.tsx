import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ApiKey } from '../../../../contract/dashboard';
import { apiError, json, noContent, stubFetch, type StubHandler } from '../../../test/fetch-stub';
import { apiKey, signedIn } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';

const secret = 'sk_live_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';

/** A server with a key store that creating and revoking change. */
function keyServer({ plan = 'free' as 'free' | 'paid', keys = [apiKey()], ...extra }: { plan?: 'free' | 'paid'; keys?: ApiKey[] } & Record<string, unknown> = {}) {
  let stored = [...keys];
  return stubFetch({
    ...signedIn(plan),
    'GET /api/dashboard/keys': () => json({ keys: stored }),
    'POST /api/dashboard/keys': ({ body }) => {
      const input = body as { name: string; scopes: ApiKey['scopes'] };
      const key = apiKey({ id: 'key_new', name: input.name, scopes: input.scopes, hint: 'sk_live_…DEFG', createdAt: new Date().toISOString() });
      stored = [...stored, key];
      return json({ key, secret }, 201);
    },
    'DELETE /api/dashboard/keys/:id': ({ params }) => {
      stored = stored.filter((key) => key.id !== params.id);
      return noContent;
    },
    ...(extra as Record<string, StubHandler>),
  });
}

describe('API keys page', () => {
  it('lists each key with its hint, scopes and when it was last used', async () => {
    keyServer({
      keys: [
        apiKey(),
        apiKey({ id: 'key_2', name: 'Zapier', scopes: ['contacts:read'], lastUsedAt: new Date(Date.now() - 3 * 86_400_000).toISOString() }),
      ],
    });
    renderApp('/keys');

    const ci = (await screen.findByRole('heading', { name: 'CI uploads' })).closest('li')!;
    expect(within(ci).getByText('sk_live_…x9Qa')).toBeInTheDocument();
    expect(within(within(ci).getByRole('list', { name: 'Scopes of CI uploads' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'transfers:read',
      'transfers:write',
    ]);
    expect(within(ci).getByText('never')).toBeInTheDocument();
    const zapier = screen.getByRole('heading', { name: 'Zapier' }).closest('li')!;
    expect(within(zapier).getByText('3 days ago')).toBeInTheDocument();
  });

  it('shows the new secret once, with a Copy button, after creating a key', async () => {
    const network = keyServer();
    const { user } = renderApp('/keys');

    await user.type(await screen.findByLabelText('Name'), 'Nightly backup');
    await user.click(screen.getByRole('checkbox', { name: 'transfers:read' }));
    await user.click(screen.getByRole('button', { name: 'Create key' }));

    const field = await screen.findByRole('textbox', { name: 'Secret key' });
    expect(field).toHaveValue(secret);
    expect(field).toHaveAttribute('readonly');
    expect(screen.getByText(/won’t be shown again/)).toBeInTheDocument();
    expect(network.requestsTo('POST /api/dashboard/keys')[0]?.body).toEqual({ name: 'Nightly backup', scopes: ['transfers:read'] });

    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(secret);

    expect(await screen.findByRole('heading', { name: 'Nightly backup' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Done' }));

    expect(screen.queryByRole('textbox', { name: 'Secret key' })).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue(secret)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create key' })).toBeInTheDocument();
  });

  it('keeps collections:write off on the free plan and says it needs a paid plan', async () => {
    keyServer({ plan: 'free' });
    const { user } = renderApp('/keys');

    const collectionsWrite = await screen.findByRole('checkbox', { name: 'collections:write' });
    expect(collectionsWrite).toBeDisabled();
    expect(collectionsWrite).toHaveAccessibleDescription(expect.stringContaining('Needs a paid plan'));

    await user.click(screen.getByRole('button', { name: 'Select all' }));

    const checked = screen.getAllByRole('checkbox').filter((box) => (box as HTMLInputElement).checked);
    expect(checked).toHaveLength(7);
    expect(collectionsWrite).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'transfers:write' })).toHaveAccessibleDescription(
      'Create transfers, add and remove files, send (including emailing recipients), change expiry and download limits, revoke',
    );
  });

  it('offers collections:write on a paid plan', async () => {
    keyServer({ plan: 'paid' });
    const { user } = renderApp('/keys');

    const collectionsWrite = await screen.findByRole('checkbox', { name: 'collections:write' });
    expect(collectionsWrite).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    expect(screen.getAllByRole('checkbox').every((box) => (box as HTMLInputElement).checked)).toBe(true);
    expect(screen.getByRole('button', { name: 'Clear all' })).toBeInTheDocument();
  });

  it('asks for a name and at least one scope before sending', async () => {
    const network = keyServer();
    const { user } = renderApp('/keys');

    await user.click(await screen.findByRole('button', { name: 'Create key' }));

    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription(expect.stringContaining('Name the key'));
    expect(screen.getByRole('group', { name: 'Scopes' })).toHaveAccessibleDescription('Choose at least one scope');
    expect(network.requestsTo('POST /api/dashboard/keys')).toHaveLength(0);
  });

  it("shows the server's message next to the form when it refuses the key", async () => {
    keyServer({
      'POST /api/dashboard/keys': apiError(402, 'upgrade_required', 'collections:write needs a paid plan'),
    });
    const { user } = renderApp('/keys');

    await user.type(await screen.findByLabelText('Name'), 'Uploader');
    await user.click(screen.getByRole('checkbox', { name: 'transfers:write' }));
    await user.click(screen.getByRole('button', { name: 'Create key' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('collections:write needs a paid plan');
    expect(screen.queryByRole('textbox', { name: 'Secret key' })).not.toBeInTheDocument();
  });

  it('asks for confirmation before revoking a key, then removes it from the list', async () => {
    const network = keyServer({ keys: [apiKey(), apiKey({ id: 'key_2', name: 'Zapier' })] });
    const { user } = renderApp('/keys');

    const revoke = await screen.findByRole('button', { name: 'Revoke CI uploads' });
    await user.click(revoke);

    let dialog = screen.getByRole('alertdialog', { name: 'Revoke key “CI uploads”?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(revoke).toHaveFocus();
    expect(network.requestsTo('DELETE /api/dashboard/keys/key_1')).toHaveLength(0);

    await user.click(revoke);
    dialog = screen.getByRole('alertdialog', { name: 'Revoke key “CI uploads”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke key' }));

    await waitFor(() => expect(screen.queryByRole('heading', { name: 'CI uploads' })).not.toBeInTheDocument());
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Zapier' })).toBeInTheDocument();
    expect(network.requestsTo('DELETE /api/dashboard/keys/key_1')).toHaveLength(1);
    expect(screen.getByRole('status', { name: '' })).toHaveTextContent('Key “CI uploads” revoked.');
  });

  it('closes the revoke dialog with Escape and keeps the key', async () => {
    const network = keyServer();
    const { user } = renderApp('/keys');

    await user.click(await screen.findByRole('button', { name: 'Revoke CI uploads' }));
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    await user.keyboard('{Escape}');

    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'CI uploads' })).toBeInTheDocument();
    expect(network.requests.filter((request) => request.method === 'DELETE')).toHaveLength(0);
  });
});
