import { useRef } from 'react';
import { formatBytes } from '../../lib/format';
import { useIntl } from '../../lib/intl';
import { describeTimeLeft, UploadEta } from '../../lib/uploads/upload-eta';
import { SEPARATOR } from '../glyphs';
import type { UploaderState } from './file-uploader';

/** One line under the uploader: files and bytes done, and a smoothed time left (see upload-eta.ts). */
export function UploadStatus({ state, now = Date.now }: { state: UploaderState; now?: () => number }) {
  const intl = useIntl();
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

  const { fileCount: count, uploadedCount: uploaded, refusedCount: refused } = state;
  const text = state.allUploaded
    ? intl.formatMessage(
        { id: 'uploader.allUploaded', defaultMessage: '{count, plural, one {The file is uploaded ({size}).} other {All # files are uploaded ({size}).}}' },
        { count, size: formatBytes(state.totalBytes) },
      )
    : settled
      ? intl.formatMessage(
          { id: 'uploader.settled', defaultMessage: '{uploaded, number} of {count, plural, one {# file} other {# files}} uploaded · {refused, number} not accepted.' },
          { uploaded, count, refused },
        )
      : [
          intl.formatMessage({ id: 'uploader.progressFiles', defaultMessage: '{uploaded, number} of {count, plural, one {# file} other {# files}} uploaded' }, { uploaded, count }),
          intl.formatMessage({ id: 'uploader.progressBytes', defaultMessage: '{done} of {total}' }, { done: formatBytes(state.uploadedBytes), total: formatBytes(state.totalBytes) }),
          state.paused
            ? intl.formatMessage({ id: 'uploader.paused', defaultMessage: 'paused' })
            : left === null
              ? intl.formatMessage({ id: 'uploader.estimating', defaultMessage: 'estimating time left…' })
              : describeTimeLeft(left, intl),
        ].join(SEPARATOR);
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
