import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../../../lib/api-error';
import type { ImportToAdd } from '../api/import-status';
import { AddFromUrlDialog } from './add-from-url-dialog';

function renderDialog(onAdd: (request: ImportToAdd) => Promise<unknown>) {
  const onClose = vi.fn();
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <AddFromUrlDialog description="Into this transfer." onAdd={onAdd} onClose={onClose} />
    </QueryClientProvider>,
  );
  return { user: userEvent.setup(), onClose, dialog: screen.getByRole('dialog', { name: 'Add from URL' }) };
}

describe('Add from URL dialog', () => {
  it('starts in the labelled URL field and sends the address with the optional name', async () => {
    const onAdd = vi.fn(() => Promise.resolve());
    const { user, onClose, dialog } = renderDialog(onAdd);
    expect(dialog).toHaveAccessibleDescription('Into this transfer.');
    const url = screen.getByLabelText('File URL');
    expect(url).toHaveFocus();
    expect(url).toHaveAccessibleDescription(expect.stringContaining('an https link'));

    await user.type(url, '  https://downloads.example.com/report.pdf ');
    await user.type(screen.getByLabelText('File name (optional)'), 'Q3 report.pdf');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onAdd).toHaveBeenCalledWith({ url: 'https://downloads.example.com/report.pdf', name: 'Q3 report.pdf' });
  });

  it('checks the address as it is typed, and again once it is left', async () => {
    const onAdd = vi.fn(() => Promise.resolve());
    const { user } = renderDialog(onAdd);
    const url = screen.getByLabelText('File URL');
    await user.type(url, 'ftp://example.com/a');
    expect(url).toHaveAttribute('aria-invalid', 'true');
    expect(url).toHaveAccessibleDescription(expect.stringContaining('Use an https:// address.'));

    await user.clear(url);
    await user.type(url, 'example.com/a.pdf');
    expect(url).not.toHaveAttribute('aria-invalid');
    await user.tab();
    expect(url).toHaveAccessibleDescription(expect.stringContaining('Enter a full address'));

    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(url).toHaveFocus();
    expect(onAdd).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal of the address beside the field, and keeps the dialog open', async () => {
    const onAdd = vi.fn(() =>
      Promise.reject(
        new ApiRequestError({
          status: 400,
          code: 'invalid_request',
          message: 'The request is invalid',
          details: { fields: [{ path: 'imports.0.url', message: 'url must be an https URL' }] },
        }),
      ),
    );
    const { user, onClose } = renderDialog(onAdd);
    const url = screen.getByLabelText('File URL');
    await user.type(url, 'http://downloads.example.com/a.bin');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(url).toHaveAccessibleDescription(expect.stringContaining('Must be an https URL.')));
    expect(url).toHaveAttribute('aria-invalid', 'true');
    expect(url).toHaveFocus();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();

    // Editing the address clears the server's word on it.
    await user.type(url, '2');
    expect(url).not.toHaveAttribute('aria-invalid');
  });

  it('shows any other refusal (no credit left) as the dialog’s message', async () => {
    const onAdd = vi.fn(() => Promise.reject(new ApiRequestError({ status: 402, code: 'out_of_credit', message: 'Your prepaid credit is used up.' })));
    const { user, onClose } = renderDialog(onAdd);
    await user.type(screen.getByLabelText('File URL'), 'https://downloads.example.com/a.bin');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your prepaid credit is used up.');
    expect(onClose).not.toHaveBeenCalled();
  });
});
