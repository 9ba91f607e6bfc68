import { getDocument, PDFDataRangeTransport, SAFE_PDF_OPTIONS } from "../../../lib/pdfjs";

/** What pdf.js asks for at a time. */
const CHUNK_BYTES = 65_536;

/** pdf.js reads the file by slices of the Blob, as it would by Range requests: a long PDF is never read whole. */
class BlobRanges extends PDFDataRangeTransport {
  constructor(private readonly file: Blob) {
    super(file.size, new Uint8Array(0));
  }

  override requestDataRange(begin: number, end: number): void {
    void this.file
      .slice(begin, end)
      .arrayBuffer()
      .then((bytes) => this.onDataRange(begin, new Uint8Array(bytes)));
  }
}

/**
 * The first page of a PDF the sender picked, drawn on a canvas of at most `side` pixels on its long side, for the
 * sealed thumbnail of an end-to-end encrypted transfer (the server never sees the file). Loaded only when a PDF is sent.
 */
export async function pdfFirstPage(file: Blob, side: number): Promise<{ source: HTMLCanvasElement; width: number; height: number } | null> {
  const task = getDocument({ range: new BlobRanges(file), rangeChunkSize: CHUNK_BYTES, ...SAFE_PDF_OPTIONS });
  try {
    const pdf = await task.promise;
    const page = await pdf.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: side / Math.max(natural.width, natural.height, 1) });
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.ceil(viewport.width));
    canvas.height = Math.max(1, Math.ceil(viewport.height));
    await page.render({ canvas, viewport, background: "#ffffff" }).promise;
    return { source: canvas, width: canvas.width, height: canvas.height };
  } finally {
    void task.destroy();
  }
}
