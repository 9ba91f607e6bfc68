import { useEffect, useRef, useState } from "react";
import { Glyph } from "../../../components/glyphs";
import { Button } from "../../../components/button";
import { useIntl } from "../../../lib/intl";
import {
  getDocument,
  SAFE_PDF_OPTIONS,
  type PDFDocumentProxy,
  type RenderTask,
} from "../../../lib/pdfjs";

/** Past this many pixels a page is drawn smaller: a page declaring a huge size must not exhaust the phone's memory. */
const MAX_CANVAS_PIXELS = 8_000_000;
const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];

/**
 * A PDF in the lightbox (pdf.js, loaded only when a PDF is opened): one page at a time on a canvas,
 * with page navigation and zoom. The file is read from its signed link by Range requests, only the
 * parts the shown page needs; nothing in it runs (no scripts, no forms, no links followed).
 */
export default function PdfViewer({
  url,
  name,
}: {
  url: string;
  name: string;
}) {
  const intl = useIntl();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [failed, setFailed] = useState(false);
  const [page, setPage] = useState(1);
  const [zoom, setZoom] = useState(2);

  useEffect(() => {
    const task = getDocument({
      url,
      ...SAFE_PDF_OPTIONS,
      withCredentials: false,
    });
    let current = true;
    task.promise.then(
      (doc) => current && setPdf(doc),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
      void task.destroy();
    };
  }, [url]);

  useEffect(() => {
    if (!pdf || !canvas.current) return;
    let rendering: RenderTask | null = null;
    let current = true;
    void (async () => {
      const shown = await pdf.getPage(page);
      if (!current || !canvas.current) return;
      const ratio = window.devicePixelRatio || 1;
      let viewport = shown.getViewport({ scale: ZOOMS[zoom]! * ratio });
      if (viewport.width * viewport.height > MAX_CANVAS_PIXELS)
        viewport = shown.getViewport({
          scale:
            ZOOMS[zoom]! *
            ratio *
            Math.sqrt(MAX_CANVAS_PIXELS / (viewport.width * viewport.height)),
        });
      const element = canvas.current;
      element.width = Math.floor(viewport.width);
      element.height = Math.floor(viewport.height);
      element.style.width = `${Math.floor(viewport.width / ratio)}px`;
      rendering = shown.render({ canvas: element, viewport });
      await rendering.promise;
    })().catch((err: unknown) => {
      if (
        current &&
        !(err instanceof Error && err.name === "RenderingCancelledException")
      )
        setFailed(true);
    });
    return () => {
      current = false;
      rendering?.cancel();
    };
  }, [pdf, page, zoom]);

  if (failed)
    return (
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage(
          {
            id: "pdf.failed",
            defaultMessage:
              "{name} cannot be shown here. Download it to open it on your device.",
          },
          { name },
        )}
      </p>
    );
  const pages = pdf?.numPages ?? 0;
  return (
    <div className="mt-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2">
          <Button
            variant="secondary"
            disabled={page <= 1}
            onClick={() => setPage(page - 1)}
            aria-label={intl.formatMessage({
              id: "pdf.previousPage",
              defaultMessage: "Previous page",
            })}
            className="min-h-11 min-w-11"
          >
            <Glyph sign="previousPage" />
          </Button>
          <span className="text-sm tabular-nums" aria-live="polite">
            {pdf
              ? intl.formatMessage(
                  {
                    id: "pdf.position",
                    defaultMessage: "Page {page, number} of {pages, number}",
                  },
                  { page, pages },
                )
              : intl.formatMessage({
                  id: "pdf.opening",
                  defaultMessage: "Opening…",
                })}
          </span>
          <Button
            variant="secondary"
            disabled={page >= pages}
            onClick={() => setPage(page + 1)}
            aria-label={intl.formatMessage({
              id: "pdf.nextPage",
              defaultMessage: "Next page",
            })}
            className="min-h-11 min-w-11"
          >
            <Glyph sign="nextPage" />
          </Button>
        </div>
        <div className="flex items-center gap-2">
          <Button
            variant="secondary"
            disabled={zoom === 0}
            onClick={() => setZoom(zoom - 1)}
            aria-label={intl.formatMessage({
              id: "pdf.zoomOut",
              defaultMessage: "Zoom out",
            })}
            className="min-h-11 min-w-11"
          >
            <Glyph sign="less" />
          </Button>
          <span className="w-12 text-center text-sm tabular-nums">
            {intl.formatNumber(ZOOMS[zoom]!, { style: "percent" })}
          </span>
          <Button
            variant="secondary"
            disabled={zoom === ZOOMS.length - 1}
            onClick={() => setZoom(zoom + 1)}
            aria-label={intl.formatMessage({
              id: "pdf.zoomIn",
              defaultMessage: "Zoom in",
            })}
            className="min-h-11 min-w-11"
          >
            <Glyph sign="more" />
          </Button>
        </div>
      </div>
      <div
        className="mt-2 max-h-[60vh] overflow-auto rounded-md border border-zinc-200 bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-800"
        tabIndex={0}
        role="region"
        aria-label={intl.formatMessage(
          { id: "pdf.page", defaultMessage: "Page {page, number} of {name}" },
          { page, name },
        )}
      >
        <canvas ref={canvas} className="mx-auto block bg-white" />
      </div>
    </div>
  );
}
