// The first page of a PDF as a PNG on standard output, at most <max-side> pixels on its long side, drawn by pdf.js
// (the renderer of the browser's viewer) on @napi-rs/canvas. Run by pdf-page.ts in a process of its own under time
// and memory limits, because a hostile PDF is code for a parser: whatever it does ends with this process.
// Plain JavaScript on purpose: no TypeScript loader starts in the child, and it starts under `ulimit -d`.
//
//   node pdf-first-page.mjs <url> <size> <max-side>
//
// The file is read from <url> by Range requests, 64 KiB at a time and only where pdf.js asks: a PDF of thousands of
// pages is not read whole, and nothing is held but what the first page needs.

import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument, PDFDataRangeTransport } from 'pdfjs-dist/legacy/build/pdf.mjs';

const [url, sizeArgument, sideArgument] = process.argv.slice(2);
const size = Number(sizeArgument);
const maxSide = Number(sideArgument);
const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

class RangeReader extends PDFDataRangeTransport {
  requestDataRange(begin, end) {
    fetch(url, { headers: { Range: `bytes=${begin}-${end - 1}` } })
      .then(async (response) => {
        if (response.status !== 206 && response.status !== 200) throw new Error(`the file answered ${response.status}`);
        this.onDataRange(begin, new Uint8Array(await response.arrayBuffer()));
      })
      .catch((err) => fail(err));
  }
}

function fail(err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

try {
  const document = await getDocument({
    range: new RangeReader(size, new Uint8Array(0)),
    rangeChunkSize: 65536,
    disableAutoFetch: true,
    disableStream: true,
    // Nothing in the file runs: no JavaScript, no XFA forms, no eval-compiled fonts.
    isEvalSupported: false,
    enableXfa: false,
    // An image inside past this many pixels is skipped rather than decoded.
    maxImageSize: 25_000_000,
    standardFontDataUrl: `${pdfjsRoot}/standard_fonts/`,
    cMapUrl: `${pdfjsRoot}/cmaps/`,
    cMapPacked: true,
    wasmUrl: `${pdfjsRoot}/wasm/`,
    verbosity: 0,
  }).promise;
  const page = await document.getPage(1);
  const natural = page.getViewport({ scale: 1 });
  // A page declaring a huge size is drawn small all the same: the canvas never exceeds the thumbnail.
  const scale = maxSide / Math.max(natural.width, natural.height, 1);
  const viewport = page.getViewport({ scale });
  const { canvas } = document.canvasFactory.create(Math.max(1, Math.ceil(viewport.width)), Math.max(1, Math.ceil(viewport.height)));
  await page.render({ canvas, viewport, background: '#ffffff' }).promise;
  process.stdout.write(await canvas.encode('png'), () => process.exit(0));
} catch (err) {
  fail(err);
}
