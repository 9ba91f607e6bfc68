import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Vault, VaultRecord } from '../../../../contract/vault';
import {
  createVault,
  E2eeError,
  newFileKey,
  newSalt,
  openVaultName,
  sealVaultName,
  unlockVault,
  wrapFileKey,
  type Argon2id,
  type MasterKey,
  type NewVault,
} from '../../../../crypto';
import { apiError, json, stubFetch } from '../../../test/fetch-stub';
import type { CollectionBrowserSearch } from '../../collections';
import { vaultQueryOptions, type VaultContents } from '../api/vault-api';
import { lockVault } from '../vault-lock';
import { VaultPage } from './vault-page';

/**
 * SHA-256 of the parameters and the passphrase in place of the real 64 MiB Argon2id: the passphrase, salt and costs
 * all still matter, and no Worker is needed.
 */
const argon2StandIn: Argon2id = async (passphrase, params) => {
  const input = new Uint8Array([...new TextEncoder().encode(JSON.stringify(params)), 0, ...passphrase]);
  return new Uint8Array(await crypto.subtle.digest('SHA-256', input));
};

const userId = 'usr_1';
const options = { accountId: userId, argon2: argon2StandIn };
const passphrase = 'lantern orbit cactus meadow';
const newPassphrase = 'velvet harbour quince tundra';
const at = '2026-11-20T10:00:00.000Z';
const TAMPERED = 'This vault’s stored settings are not ones this page accepts (they may have been tampered with), so it was not opened.';

// happy-dom lays nothing out: the list's scroll area gets a size, so the virtualiser renders rows.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(640);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(960);
});

// The key lives in module memory, not in React: without this one test's open vault would be open in the next.
afterEach(() => lockVault());

const stored = (record: VaultRecord): Vault => ({ record, usage: { usedBytes: 0, limitBytes: 2e9 }, createdAt: at, updatedAt: at });

/** The server's side of the vault: its record (none until PUT), replaced by PATCH, and what is in it. */
function vaultServer(record: VaultRecord | null, contents: VaultContents = { folders: [], items: [] }) {
  let vault = record && stored(record);
  return stubFetch({
    'GET /api/dashboard/vault': () => (vault ? json({ vault }) : apiError(404, 'not_found', 'Vault not found')),
    'PUT /api/dashboard/vault': ({ body }) => {
      vault = stored((body as { record: VaultRecord }).record);
      return json({ vault }, 201);
    },
    'PATCH /api/dashboard/vault': ({ body }) => {
      vault = stored((body as { record: VaultRecord }).record);
      return json({ vault });
    },
    'GET /api/dashboard/vault/items': json(contents),
  });
}

/** A folder "Receipts" with an invoice in it, and a file at the top, every name sealed under the vault's master key. */
async function sealedContents(master: MasterKey): Promise<VaultContents> {
  const file = async (id: string, folderId: string | null, name: string, size: number) => ({
    id,
    folderId,
    size: size + 64,
    state: 'complete' as const,
    sealedMeta: await sealVaultName(master, { kind: 'file', id }, { name, size, type: 'application/pdf', salt: newSalt() }),
    sealedThumb: '',
    wrappedKey: await wrapFileKey(master, id, newFileKey()),
    createdAt: at,
    updatedAt: at,
  });
  return {
    folders: [
      {
        id: 'vf_receipts',
        parentId: null,
        sealedName: await sealVaultName(master, { kind: 'folder', id: 'vf_receipts' }, { name: 'Receipts' }),
        createdAt: at,
        updatedAt: at,
      },
    ],
    items: [await file('vi_taxes', null, 'taxes.pdf', 52_000), await file('vi_invoice', 'vf_receipts', 'march-invoice.pdf', 18_000)],
  };
}

/** The page as its route shows it, with the browser's search kept in state and the stand-in Argon2id. */
function VaultHarness({ argon2 }: { argon2: Argon2id }) {
  const [search, setSearch] = useState<CollectionBrowserSearch>({ sort: 'name', order: 'asc', view: 'list' });
  return (
    <VaultPage userId={userId} workspaceId="ws_1" search={search} onSearchChange={(change) => setSearch((prev) => ({ ...prev, ...change }))} argon2={argon2} />
  );
}

/** /vault in a router of its own (the browser's breadcrumbs are router links), its loader reading the vault as the real route's does. */
function renderVaultPage(argon2: Argon2id = argon2StandIn) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const rootRoute = createRootRoute();
  const vaultRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: '/vault',
    loader: () => queryClient.ensureQueryData(vaultQueryOptions()),
    component: () => <VaultHarness argon2={argon2} />,
  });
  const router = createRouter({
    routeTree: rootRoute.addChildren([vaultRoute]),
    history: createMemoryHistory({ initialEntries: ['/vault'] }),
    Wrap: ({ children }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>,
  });
  const user = userEvent.setup();
  render(<RouterProvider router={router} />);
  return { user };
}

type User = ReturnType<typeof userEvent.setup>;

async function typeNewPassphrase(user: User, label: string, first: string, again = first) {
  await user.clear(screen.getByLabelText(label));
  await user.type(screen.getByLabelText(label), first);
  await user.clear(screen.getByLabelText(`${label}, again`));
  await user.type(screen.getByLabelText(`${label}, again`), again);
}

async function unlockWith(user: User, typed: string) {
  const field = await screen.findByLabelText('Vault passphrase');
  await user.clear(field);
  await user.type(field, typed);
  await user.click(screen.getByRole('button', { name: 'Unlock' }));
}

const optionNames = (list: HTMLElement) =>
  within(list)
    .getAllByRole('option')
    .map((option) => option.getAttribute('aria-label'));

/** A vault made as the page makes one, its contents sealed under its key. */
async function existingVault(): Promise<NewVault & { contents: VaultContents }> {
  const made = await createVault(passphrase, options);
  return { ...made, contents: await sealedContents(made.masterKey) };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return error instanceof E2eeError ? error.reason : `no refusal (${String(error)})`;
}

describe('vault page', () => {
  it('creates a vault only once the recovery code is saved, refusing weak or mistyped passphrases, and sends no secret', async () => {
    const argon2 = vi.fn(argon2StandIn);
    const network = vaultServer(null);
    const { user } = renderVaultPage(argon2);

    await screen.findByRole('heading', { name: 'Create your vault' });
    expect(screen.getByText('There is no “forgot passphrase”.')).toBeInTheDocument();

    await typeNewPassphrase(user, 'Vault passphrase', 'password123!');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByLabelText('Vault passphrase')).toBeInvalid();
    expect(screen.getByLabelText('Vault passphrase')).toHaveAccessibleDescription(/^Weak: easy to guess\. Use a longer passphrase/);
    expect(argon2).not.toHaveBeenCalled();

    await typeNewPassphrase(user, 'Vault passphrase', passphrase, `${passphrase}s`);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByLabelText('Vault passphrase, again')).toHaveAccessibleDescription('The two passphrases are not the same.');
    expect(screen.getByLabelText('Vault passphrase')).toBeValid();

    await typeNewPassphrase(user, 'Vault passphrase', passphrase);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Save your recovery code' });
    const code = screen.getByTestId('recovery-code').textContent;
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){13}$/);
    // Nothing is stored before the code is kept: a vault whose only way back was lost never exists.
    expect(network.requestsTo('PUT /api/dashboard/vault')).toHaveLength(0);

    const create = screen.getByRole('button', { name: 'Create my vault' });
    expect(create).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: /^I have saved my recovery code/ }));
    expect(create).toBeEnabled();
    await user.click(create);

    expect(await screen.findByText(/^Nothing here yet\./)).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Contents of Vault' })).toBeInTheDocument();
    const puts = network.requestsTo('PUT /api/dashboard/vault');
    expect(puts).toHaveLength(1);
    const { record } = puts[0]!.body as { record: VaultRecord };
    expect(record.kdf).toMatchObject({ algorithm: 'argon2id', memoryKiB: 65_536, iterations: 3 });
    const sent = JSON.stringify(puts[0]!.body);
    expect(sent).not.toContain(passphrase);
    expect(sent).not.toContain(code);
    expect(sent.toUpperCase()).not.toContain(code!.replaceAll('-', ''));
    // What was stored is the vault that was opened: the passphrase typed opens it.
    await expect(unlockVault(record, passphrase, options)).resolves.toBeDefined();
  });

  it('stays locked on a wrong passphrase, opens on the right one, and lists and searches the decrypted names', async () => {
    const { record, contents } = await existingVault();
    vaultServer(record, contents);
    const { user } = renderVaultPage();

    await unlockWith(user, 'lantern orbit cactus meadows');
    expect(await screen.findByRole('alert')).toHaveTextContent(/^This passphrase does not open the vault\./);
    expect(screen.getByRole('heading', { name: 'Your vault is locked' })).toBeInTheDocument();
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();

    await unlockWith(user, passphrase);
    const top = await screen.findByRole('listbox', { name: 'Contents of Vault' });
    expect(optionNames(top)).toEqual(['Receipts', 'taxes.pdf']);
    expect(screen.queryByRole('heading', { name: 'Your vault is locked' })).not.toBeInTheDocument();

    // The search runs over every folder: the invoice inside Receipts is found from the top.
    await user.type(screen.getByRole('searchbox', { name: 'Search your vault by name' }), 'invoice');
    const results = screen.getByRole('listbox', { name: 'Search results for “invoice”' });
    expect(optionNames(results)).toEqual(['march-invoice.pdf']);

    await user.clear(screen.getByRole('searchbox', { name: 'Search your vault by name' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search your vault by name' }), 'RE');
    expect(optionNames(screen.getByRole('listbox', { name: 'Search results for “RE”' }))).toEqual(['Receipts']);
  });

  it('refuses a record whose key-derivation settings were lowered, without hashing the passphrase', async () => {
    const { record } = await createVault(passphrase, options);
    vaultServer({ ...record, kdf: { ...record.kdf, memoryKiB: 1024 } });
    const argon2 = vi.fn(argon2StandIn);
    const { user } = renderVaultPage(argon2);

    await unlockWith(user, passphrase);
    expect(await screen.findByRole('alert')).toHaveTextContent(TAMPERED);
    expect(screen.getByRole('heading', { name: 'Your vault is locked' })).toBeInTheDocument();
    expect(argon2).not.toHaveBeenCalled();
  });

  it('locks with the Lock button, and remembers how long it may stay open without use', async () => {
    const { record, contents } = await existingVault();
    vaultServer(record, contents);
    const { user } = renderVaultPage();
    await unlockWith(user, passphrase);
    await screen.findByRole('listbox', { name: 'Contents of Vault' });

    const idle = screen.getByRole('combobox', { name: 'Lock the vault after' });
    expect(idle).toHaveDisplayValue('15 minutes');
    await user.selectOptions(idle, '1 hour');
    expect(window.localStorage.getItem('parcel.vault.idleMinutes')).toBe('60');

    await user.click(screen.getByRole('button', { name: 'Lock' }));
    expect(await screen.findByRole('heading', { name: 'Your vault is locked' })).toBeInTheDocument();
    expect(screen.queryByText('taxes.pdf')).not.toBeInTheDocument();
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();

    // Opened again, the choice is still there.
    await unlockWith(user, passphrase);
    await screen.findByRole('listbox', { name: 'Contents of Vault' });
    expect(screen.getByRole('combobox', { name: 'Lock the vault after' })).toHaveDisplayValue('1 hour');
  });

  it('changes the passphrase only with the current one, to a record the new passphrase opens and the old does not', async () => {
    const { record, contents } = await existingVault();
    const network = vaultServer(record, contents);
    const { user } = renderVaultPage();
    await unlockWith(user, passphrase);
    await screen.findByRole('listbox', { name: 'Contents of Vault' });

    await user.click(screen.getByRole('button', { name: 'Change passphrase' }));
    const dialog = screen.getByRole('dialog', { name: 'Change your vault passphrase' });
    await user.type(within(dialog).getByLabelText('Current passphrase'), 'not my passphrase at all');
    await typeNewPassphrase(user, 'New passphrase', newPassphrase);
    await user.click(within(dialog).getByRole('button', { name: 'Change passphrase' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^This passphrase does not open the vault\./);
    expect(network.requestsTo('PATCH /api/dashboard/vault')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('Current passphrase'));
    await user.type(within(dialog).getByLabelText('Current passphrase'), passphrase);
    // The same passphrase again is no change.
    await typeNewPassphrase(user, 'New passphrase', passphrase);
    await user.click(within(dialog).getByRole('button', { name: 'Change passphrase' }));
    expect(await within(dialog).findByText('This is your current passphrase: choose a new one.')).toBeInTheDocument();
    expect(network.requestsTo('PATCH /api/dashboard/vault')).toHaveLength(0);

    await typeNewPassphrase(user, 'New passphrase', newPassphrase);
    await user.click(within(dialog).getByRole('button', { name: 'Change passphrase' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent(/^Your vault passphrase was changed\./);

    const patches = network.requestsTo('PATCH /api/dashboard/vault');
    expect(patches).toHaveLength(1);
    const changed = (patches[0]!.body as { record: VaultRecord }).record;
    expect(JSON.stringify(changed)).not.toContain(newPassphrase);
    expect(await refusal(unlockVault(changed, passphrase, options))).toBe('wrong_passphrase');
    // The same master key, so every sealed name still opens, and the recovery code still works.
    const master = await unlockVault(changed, newPassphrase, options);
    await expect(openVaultName(master, { kind: 'folder', id: 'vf_receipts' }, contents.folders[0]!.sealedName)).resolves.toMatchObject({ name: 'Receipts' });
    expect(changed.recovery).toEqual(record.recovery);
    // Still open: a new passphrase does not lock the owner out of what they are looking at.
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.getByRole('listbox', { name: 'Contents of Vault' })).toBeInTheDocument();
  });

  it('recovers with the recovery code, refusing one with a typo before sending anything', async () => {
    const { record, contents, recoveryCode } = await existingVault();
    const network = vaultServer(record, contents);
    const { user } = renderVaultPage();

    await user.click(await screen.findByRole('button', { name: 'Forgot it? Use your recovery code' }));
    await screen.findByRole('heading', { name: 'Recover your vault' });
    // One character of the second group misread: still a character codes have, so only the checksum can tell.
    const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    const typo = alphabet[(alphabet.indexOf(recoveryCode[5]!) + 1) % alphabet.length]!;
    await user.type(screen.getByLabelText('Recovery code'), `${recoveryCode.slice(0, 5)}${typo}${recoveryCode.slice(6)}`);
    await typeNewPassphrase(user, 'New vault passphrase', newPassphrase);
    await user.click(screen.getByRole('button', { name: 'Recover and unlock' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^This recovery code has a typo/);
    expect(network.requestsTo('PATCH /api/dashboard/vault')).toHaveLength(0);

    // As someone copies it from paper: lower case, spaces between the groups.
    await user.clear(screen.getByLabelText('Recovery code'));
    await user.type(screen.getByLabelText('Recovery code'), recoveryCode.toLowerCase().replaceAll('-', ' '));
    await user.click(screen.getByRole('button', { name: 'Recover and unlock' }));

    const top = await screen.findByRole('listbox', { name: 'Contents of Vault' });
    expect(optionNames(top)).toEqual(['Receipts', 'taxes.pdf']);
    const patches = network.requestsTo('PATCH /api/dashboard/vault');
    expect(patches).toHaveLength(1);
    const recovered = (patches[0]!.body as { record: VaultRecord }).record;
    await expect(unlockVault(recovered, newPassphrase, options)).resolves.toBeDefined();
    expect(await refusal(unlockVault(recovered, passphrase, options))).toBe('wrong_passphrase');

    // Locked again, the new passphrase is the one that opens it: the page uses the record the server now holds.
    await user.click(screen.getByRole('button', { name: 'Lock' }));
    await unlockWith(user, newPassphrase);
    expect(await screen.findByRole('listbox', { name: 'Contents of Vault' })).toBeInTheDocument();
  });
});
