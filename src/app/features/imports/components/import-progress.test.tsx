import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ImportStatus } from '../api/import-status';
import { ImportRow } from './import-progress';

function status(overrides: Partial<ImportStatus> = {}): ImportStatus {
  return {
    fileId: 'fi_1',
    name: 'footage.mov',
    size: 100_000_000,
    receivedBytes: 33_554_432,
    source: 'https://downloads.example.com/footage.mov',
    status: 'importing',
    ...overrides,
  };
}

function renderRow(props: Partial<Parameters<typeof ImportRow>[0]> = {}) {
  return render(
    <ul>
      <ImportRow name="footage.mov" query={{ status: status(), error: null }} {...props} />
    </ul>,
  );
}

describe('ImportRow', () => {
  it('shows a running import as a progress bar with how much is in', () => {
    renderRow();
    const bar = screen.getByRole('progressbar', { name: 'Importing footage.mov' });
    expect(bar).toHaveAttribute('aria-valuenow', '33');
    expect(bar).toHaveAttribute('aria-valuetext', '34 MB of 100 MB');
    expect(screen.getByText('From https://downloads.example.com/footage.mov')).toBeInTheDocument();
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('has no amount before the origin said how large the file is', () => {
    renderRow({ query: { status: status({ size: null, receivedBytes: 0 }), error: null } });
    const bar = screen.getByRole('progressbar', { name: 'Importing footage.mov' });
    expect(bar).not.toHaveAttribute('aria-valuenow');
    expect(bar).toHaveAttribute('aria-valuetext', 'Waiting for the other server…');
  });

  it('says ready, and announces it', () => {
    renderRow({ query: { status: status({ status: 'ready', receivedBytes: 100_000_000 }), error: null } });
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByText('Ready · 100 MB')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('footage.mov is imported.');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('offers removal once ready, never while running', () => {
    const { rerender } = renderRow({ onRemove: () => undefined });
    expect(screen.queryByRole('button', { name: 'Remove footage.mov' })).not.toBeInTheDocument();
    rerender(
      <ul>
        <ImportRow name="footage.mov" query={{ status: status({ status: 'ready', receivedBytes: 100_000_000 }), error: null }} onRemove={() => undefined} />
      </ul>,
    );
    expect(screen.getByRole('button', { name: 'Remove footage.mov' })).toBeEnabled();
  });

  it('says why it failed, with a remove button described by the reason', async () => {
    const onRemove = vi.fn();
    renderRow({ query: { status: status({ status: 'failed', receivedBytes: 0, error: 'The server answered 404 Not Found.' }), error: null }, onRemove });
    const remove = screen.getByRole('button', { name: 'Remove footage.mov' });
    expect(remove).toHaveAccessibleDescription('The server answered 404 Not Found.');
    expect(screen.getByRole('status')).toHaveTextContent('footage.mov could not be imported. The server answered 404 Not Found.');
    await userEvent.setup().click(remove);
    expect(onRemove).toHaveBeenCalledOnce();
  });

  it('shows names, addresses and errors from elsewhere as text, never as markup', () => {
    const hostile = '<img src=x onerror="alert(1)">';
    const { container } = renderRow({
      name: hostile,
      query: { status: status({ name: hostile, source: `https://x.example/${hostile}`, status: 'failed', error: hostile }), error: null },
      onRemove: () => undefined,
    });
    expect(container.querySelector('img')).toBeNull();
    expect(within(container).getAllByText(hostile, { exact: false }).length).toBeGreaterThan(1);
  });
});
