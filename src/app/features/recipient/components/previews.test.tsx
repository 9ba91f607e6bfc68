import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PublicTransferFile } from '../../../../contract/public';
import { PreviewGrid } from './previews';

const file = (id: string, name: string, thumbnailUrl: string | null, mimeType = 'image/jpeg'): PublicTransferFile => ({
  id,
  name,
  path: null,
  sizeBytes: 1000,
  mimeType,
  crc32: '0a1b2c3d',
  sealedMeta: null,
  sealedThumb: null,
  thumbnailUrl,
  scanPending: false,
});

const files = [
  file('f1', 'beach <1>.jpg', 'http://localhost:8080/thumb/t1'),
  file('f2', 'report.pdf', null, 'application/pdf'),
  file('f3', 'sunset.png', 'http://localhost:8080/thumb/t3', 'image/png'),
];

function renderGrid() {
  const user = userEvent.setup();
  const urls = new Map([
    ['f1', 'http://localhost:8080/dl/a'],
    ['f3', 'http://localhost:8080/dl/c'],
  ]);
  render(
    <PreviewGrid
      files={files}
      action={(f) => (
        <a href={urls.get(f.id)} download={f.name}>
          Download<span className="sr-only"> {f.name}</span>
        </a>
      )}
    />,
  );
  return user;
}

describe('image previews on the recipient page', () => {
  it('shows a thumbnail for each image that has one, named by the file (as text, never markup)', () => {
    renderGrid();
    const grid = screen.getByRole('region', { name: 'Previews' });
    const images = within(grid).getAllByRole('img');
    expect(images.map((img) => img.getAttribute('alt'))).toEqual(['beach <1>.jpg', 'sunset.png']);
    // The first rows are on screen (and preloaded by the page's HTML): they load at once, not lazily.
    expect(images[0]).toHaveAttribute('loading', 'eager');
    expect(within(grid).queryByAltText('report.pdf')).not.toBeInTheDocument();
  });

  it('opens a lightbox, moves with the arrow keys, closes with Esc and gives focus back to the thumbnail', async () => {
    const user = renderGrid();
    const first = screen.getByRole('button', { name: 'Open the preview of beach <1>.jpg' });
    await user.click(first);
    let dialog = screen.getByRole('dialog', { name: 'Preview of beach <1>.jpg' });
    expect(within(dialog).getByText('1 of 2')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Download beach <1>.jpg' })).toHaveAttribute('href', 'http://localhost:8080/dl/a');
    expect(within(dialog).getByRole('button', { name: 'Previous image' })).toBeDisabled();

    await user.keyboard('{ArrowRight}');
    dialog = screen.getByRole('dialog', { name: 'Preview of sunset.png' });
    expect(within(dialog).getByText('2 of 2')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Previous image' }));
    expect(screen.getByRole('dialog', { name: 'Preview of beach <1>.jpg' })).toBeInTheDocument();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(first).toHaveFocus();
  });
});
