import { GlobalWorkerOptions } from "pdfjs-dist";
import workerUrl from "pdfjs-dist/build/pdf.worker.min.mjs?url";

// pdf.js parses in a worker of its own, served from this origin (the page's policy allows 'self' workers). Imported
// only by the chunks that open a PDF (the viewer, a sender's first-page thumbnail), never by a first load.
GlobalWorkerOptions.workerSrc = workerUrl;

export { getDocument, PDFDataRangeTransport } from "pdfjs-dist";
export type { PDFDocumentProxy, RenderTask } from "pdfjs-dist";

/**
 * What every PDF opened here is given: nothing in the file runs (no scripts, no XFA forms, no eval-compiled fonts),
 * and only the parts the shown page needs are read.
 */
export const SAFE_PDF_OPTIONS = {
  disableAutoFetch: true,
  disableStream: true,
  enableXfa: false,
  isEvalSupported: false,
} as const;
