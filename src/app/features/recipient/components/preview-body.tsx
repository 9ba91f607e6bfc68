import { lazy, Suspense, useEffect, useState } from "react";
import { formatBytes } from "../../../lib/format";
import { useIntl } from "../../../lib/intl";
import type { PreviewKind } from "../utils/file-kind";
import { parseCsv } from "../utils/csv";

/** How much of a text file is shown: enough to read it, never the whole of a large one. */
export const TEXT_PREVIEW_BYTES = 256 * 1024;
const CSV_PREVIEW_ROWS = 500;

// The PDF viewer (pdf.js) is large: loaded the first time a PDF is opened, never with the page.
const PdfViewer = lazy(() => import("./pdf-viewer"));

const note = "mt-2 text-sm text-zinc-600 dark:text-zinc-400";

/**
 * The lightbox's view of one file that is not an image: a player for video and audio streaming
 * from the file's signed link (Range requests: seeking fetches only what it plays), the PDF viewer,
 * or the first 256 KB as text (a CSV as a table). Text is only ever text: never markup.
 */
/** What shows while a preview's link or bytes are on their way. */
function LoadingPreview() {
  const intl = useIntl();
  return <p className={note}>{intl.formatMessage({ id: "preview.loading", defaultMessage: "Loading the preview…" })}</p>;
}

export function PreviewBody({
  kind,
  name,
  sizeBytes,
  source,
  poster = null,
}: {
  kind: Exclude<PreviewKind, "image">;
  name: string;
  sizeBytes: number;
  source: () => Promise<string>;
  /** A video's poster frame, shown until it plays. */
  poster?: string | null;
}) {
  const intl = useIntl();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    setUrl(null);
    setFailed(false);
    source().then(
      (found) => current && setUrl(found),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [source]);

  if (failed)
    return (
      <p className={note}>
        {intl.formatMessage({
          id: "preview.unavailable",
          defaultMessage:
            "This preview cannot be shown now. Download the file instead.",
        })}
      </p>
    );
  if (!url)
    return (
      <LoadingPreview />
    );
  switch (kind) {
    case "video":
      return <MediaPlayer kind="video" url={url} name={name} poster={poster} />;
    case "audio":
      return <MediaPlayer kind="audio" url={url} name={name} />;
    case "pdf":
      return (
        <Suspense
          fallback={
            <p className={note}>
              {intl.formatMessage({
                id: "preview.loadingPdfViewer",
                defaultMessage: "Loading the PDF viewer…",
              })}
            </p>
          }
        >
          <PdfViewer url={url} name={name} />
        </Suspense>
      );
    case "text":
    case "csv":
      return (
        <TextPreview
          url={url}
          asTable={kind === "csv"}
          name={name}
          sizeBytes={sizeBytes}
        />
      );
  }
}

function MediaPlayer({
  kind,
  url,
  name,
  poster = null,
}: {
  kind: "video" | "audio";
  url: string;
  name: string;
  poster?: string | null;
}) {
  const intl = useIntl();
  const [unplayable, setUnplayable] = useState(false);
  if (unplayable)
    return (
      <p className={note}>
        {intl.formatMessage(
          {
            id: "preview.unplayable",
            defaultMessage:
              "This browser cannot play {name}. Download it to play it on your device.",
          },
          { name },
        )}
      </p>
    );
  return kind === "video" ? (
    // The file's own link: the browser asks for the ranges it plays, so seeking never downloads the whole file.
    <video
      controls
      playsInline
      preload="metadata"
      src={url}
      poster={poster ?? undefined}
      aria-label={name}
      onError={() => setUnplayable(true)}
      className="mx-auto mt-3 max-h-[60vh] w-full rounded-md bg-black"
    />
  ) : (
    <audio
      controls
      preload="metadata"
      src={url}
      aria-label={name}
      onError={() => setUnplayable(true)}
      className="mt-3 w-full"
    />
  );
}

function TextPreview({
  url,
  asTable,
  name,
  sizeBytes,
}: {
  url: string;
  asTable: boolean;
  name: string;
  sizeBytes: number;
}) {
  const intl = useIntl();
  const [text, setText] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const abort = new AbortController();
    readStart(url, TEXT_PREVIEW_BYTES, abort.signal).then(
      setText,
      () => !abort.signal.aborted && setFailed(true),
    );
    return () => abort.abort();
  }, [url]);

  if (failed)
    return (
      <p className={note}>
        {intl.formatMessage(
          {
            id: "preview.unreadable",
            defaultMessage: "{name} could not be read. Download it instead.",
          },
          { name },
        )}
      </p>
    );
  if (text === null)
    return (
      <LoadingPreview />
    );
  const cut = sizeBytes > TEXT_PREVIEW_BYTES;
  const shown = cut ? (
    <p className={note}>
      {intl.formatMessage(
        {
          id: "preview.textCut",
          defaultMessage:
            "The first {shown} of {size}: download the file for the rest.",
        },
        { shown: formatBytes(TEXT_PREVIEW_BYTES), size: formatBytes(sizeBytes) },
      )}
    </p>
  ) : null;
  if (asTable) {
    // A cut file's last line may be cut too: it is left out.
    const rows = parseCsv(text, CSV_PREVIEW_ROWS + 1, { dropLastLine: cut });
    const [header, ...body] = rows;
    return (
      <>
        <div
          className="mt-3 max-h-[60vh] overflow-auto rounded-md border border-zinc-200 dark:border-zinc-700"
          tabIndex={0}
          role="region"
          aria-label={intl.formatMessage(
            { id: "preview.table", defaultMessage: "Table of {name}" },
            { name },
          )}
        >
          <table className="min-w-full text-start text-sm">
            {header ? (
              <thead className="sticky top-0 bg-zinc-100 dark:bg-zinc-800">
                <tr>
                  {header.map((cell, i) => (
                    <th
                      key={i}
                      scope="col"
                      className="px-3 py-2 font-semibold whitespace-nowrap"
                    >
                      {cell}
                    </th>
                  ))}
                </tr>
              </thead>
            ) : null}
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {body.slice(0, CSV_PREVIEW_ROWS).map((row, r) => (
                <tr key={r}>
                  {row.map((cell, i) => (
                    <td key={i} className="px-3 py-1.5 whitespace-nowrap">
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {body.length > CSV_PREVIEW_ROWS ? (
          <p className={note}>
            {intl.formatMessage(
              {
                id: "preview.rowsCut",
                defaultMessage:
                  "The first {rows, plural, one {# row} other {# rows}}: download the file for the rest.",
              },
              { rows: CSV_PREVIEW_ROWS },
            )}
          </p>
        ) : (
          shown
        )}
      </>
    );
  }
  return (
    <>
      <pre
        tabIndex={0}
        aria-label={intl.formatMessage(
          { id: "preview.text", defaultMessage: "Text of {name}" },
          { name },
        )}
        className="mt-3 max-h-[60vh] overflow-auto rounded-md border border-zinc-200 bg-zinc-50 p-3 text-xs leading-relaxed break-words whitespace-pre-wrap dark:border-zinc-700 dark:bg-zinc-950"
      >
        {text}
      </pre>
      {shown}
    </>
  );
}

/** The first `limit` bytes of the file, as UTF-8 text: asked for by Range, and read no further whatever the server sends. */
async function readStart(
  url: string,
  limit: number,
  signal: AbortSignal,
): Promise<string> {
  const response = await fetch(url, {
    headers: { Range: `bytes=0-${limit - 1}` },
    credentials: "omit",
    referrerPolicy: "no-referrer",
    signal,
  });
  if (!response.ok || !response.body)
    throw new Error(`The file answered ${response.status}`);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let read = 0;
  while (read < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value.subarray(0, limit - read));
    read += Math.min(value.length, limit - read);
  }
  await reader.cancel().catch(() => {});
  const bytes = new Uint8Array(read);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  // A cut may fall inside a character: the decoder shows it as one replacement character at the end.
  return new TextDecoder("utf-8").decode(bytes);
}
