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
    expect(within(dialog).getByRole('button', { name: 'Previous file' })).toBeDisabled();

    await user.keyboard('{ArrowRight}');
    dialog = screen.getByRole('dialog', { name: 'Preview of sunset.png' });
    expect(within(dialog).getByText('2 of 2')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Previous file' }));
    expect(screen.getByRole('dialog', { name: 'Preview of beach <1>.jpg' })).toBeInTheDocument();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(first).toHaveFocus();
  });
});

describe('previews of what is not an image', () => {
  const media = [
    file('v1', 'clip.mp4', null, 'video/mp4'),
    file('a1', 'voice.mp3', null, 'audio/mpeg'),
    file('t1', 'notes.md', null, 'text/markdown'),
    file('c1', 'prices.csv', null, 'text/csv'),
    file('z1', 'bundle.zip', null, 'application/zip'),
  ];
  const links: Record<string, string> = { v1: '/dl/v', a1: '/dl/a', t1: '/dl/t', c1: '/dl/c' };

  function renderMedia(fetched: Record<string, string>) {
    const asked: { url: string; range: string | null }[] = [];
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      asked.push({ url, range: new Headers(init?.headers).get('range') });
      return new Response(fetched[url] ?? '', { status: 206 });
    }) as typeof fetch;
    const user = userEvent.setup();
    render(<PreviewGrid files={media} action={() => null} sourceOf={(f) => Promise.resolve(links[f.id]!)} />);
    return { user, asked };
  }

  it('plays video and audio from the file’s link, and offers nothing for a zip', async () => {
    const { user } = renderMedia({});
    const grid = screen.getByRole('region', { name: 'Previews' });
    expect(within(grid).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
      'Open the preview of clip.mp4',
      'Open the preview of voice.mp3',
      'Open the preview of notes.md',
      'Open the preview of prices.csv',
    ]);
    await user.click(within(grid).getByRole('button', { name: 'Open the preview of clip.mp4' }));
    const dialog = screen.getByRole('dialog', { name: 'Preview of clip.mp4' });
    const video = await within(dialog).findByLabelText('clip.mp4');
    expect(video.tagName).toBe('VIDEO');
    expect(video).toHaveAttribute('src', '/dl/v');
    expect(video).toHaveAttribute('preload', 'metadata');
    await user.click(within(dialog).getByRole('button', { name: 'Next file' }));
    const audio = await within(screen.getByRole('dialog', { name: 'Preview of voice.mp3' })).findByLabelText('voice.mp3');
    expect(audio.tagName).toBe('AUDIO');
  });

  it('shows the start of a text as text (never markup), asking for its first 256 KB only, and a CSV as a table', async () => {
    const { user, asked } = renderMedia({ '/dl/t': '# Title\n<img src=x onerror=alert(1)>', '/dl/c': 'item,price\n"Tea, green",3\n' });
    await user.click(screen.getByRole('button', { name: 'Open the preview of notes.md' }));
    const text = await screen.findByLabelText('Text of notes.md');
    expect(text.textContent).toBe('# Title\n<img src=x onerror=alert(1)>');
    expect(text.querySelector('img')).toBeNull();
    expect(asked).toContainEqual({ url: '/dl/t', range: 'bytes=0-262143' });

    await user.keyboard('{ArrowRight}');
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['item', 'price']);
    expect(within(table).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Tea, green', '3']);
  });
});
