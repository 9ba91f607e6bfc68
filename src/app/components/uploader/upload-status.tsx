import { useRef } from 'react';
import { formatBytes } from '../../lib/format';
import { describeTimeLeft, UploadEta } from '../../lib/uploads/upload-eta';
import type { UploaderState } from './file-uploader';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One line under the uploader: files and bytes done, and a smoothed time left (see upload-eta.ts). */
export function UploadStatus({ state, now = Date.now }: { state: UploaderState; now?: () => number }) {
  const eta = useRef<UploadEta>(null);
  eta.current ??= new UploadEta();
  if (state.fileCount === 0) return null;
  const at = now();
  if (state.allUploaded) {
    eta.current.reset();
  } else if (!state.paused) {
    eta.current.record(at, state.uploadedBytes);
  }
  const left = state.paused ? null : eta.current.secondsLeft(at, state.totalBytes);
  // Files the server refused never upload: once only they are left, there is no time left to tell.
  const settled = !state.allUploaded && state.refusedCount > 0 && state.uploadedCount + state.refusedCount === state.fileCount;

  const text = state.allUploaded
    ? `${state.fileCount === 1 ? 'The file is' : `All ${state.fileCount} files are`} uploaded (${formatBytes(state.totalBytes)}).`
    : settled
      ? `${state.uploadedCount} of ${plural(state.fileCount, 'file', 'files')} uploaded · ${state.refusedCount} not accepted.`
      : [
          `${state.uploadedCount} of ${plural(state.fileCount, 'file', 'files')} uploaded`,
          `${formatBytes(state.uploadedBytes)} of ${formatBytes(state.totalBytes)}`,
          state.paused ? 'paused' : left === null ? 'estimating time left…' : describeTimeLeft(left),
        ].join(' · ');
  return (
    <>
      <p className="text-sm text-zinc-700 tabular-nums dark:text-zinc-300" data-testid="upload-status">
        {text}
      </p>
      {/* Announced once, when it matters; the running numbers above would be noise for a screen reader. */}
      <p role="status" className="sr-only">
        {state.allUploaded || settled ? text : ''}
      </p>
    </>
  );
}
