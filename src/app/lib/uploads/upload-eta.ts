import type { IntlShape } from 'react-intl';
import { currentIntl } from '../intl';
/**
 * Time left for the uploads, from a smoothed rate over the whole remaining size.
 *
 * Progress arrives in bursts (the browser reports a request body in chunks, several files share the
 * line, a file finishes and the next starts), so an instantaneous rate swings wildly: Uppy's own
 * estimate said "0s left" at 14 %. This keeps the progress of the last `windowMs` and divides the
 * bytes sent in that window by its length; the first estimate waits until `warmupMs` of progress
 * has been seen, and paused or stalled uploads give none.
 */
export interface EtaOptions {
  windowMs?: number;
  warmupMs?: number;
}

interface Sample {
  at: number;
  bytes: number;
}

export class UploadEta {
  private samples: Sample[] = [];
  private readonly windowMs: number;
  private readonly warmupMs: number;

  constructor(options: EtaOptions = {}) {
    this.windowMs = options.windowMs ?? 20_000;
    this.warmupMs = options.warmupMs ?? 1_500;
  }

  /** Records the bytes uploaded so far (all files together) at time `at`, in ms. */
  record(at: number, uploadedBytes: number) {
    const last = this.samples.at(-1);
    // Fewer bytes than before: a file was removed or restarted. The old rate no longer applies.
    if (last && uploadedBytes < last.bytes) this.samples = [];
    this.samples.push({ at, bytes: uploadedBytes });
    const horizon = at - this.windowMs;
    // Keep one sample at or before the horizon, so the window always spans `windowMs` once it can.
    while (this.samples.length > 2 && this.samples[1]!.at <= horizon) this.samples.shift();
  }

  /** Bytes per second over the window, or null before the warm-up or when nothing moved. */
  rate(now: number): number | null {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last === first) return null;
    // Time since the last progress counts too: a stalled upload's rate falls instead of freezing.
    const span = Math.max(now, last.at) - first.at;
    if (span < this.warmupMs || last.bytes === first.bytes) return null;
    return ((last.bytes - first.bytes) / span) * 1000;
  }

  /** Seconds left to upload `totalBytes`, or null when there is no trustworthy rate yet. */
  secondsLeft(now: number, totalBytes: number): number | null {
    const last = this.samples.at(-1);
    const rate = this.rate(now);
    if (!last || rate === null || rate <= 0) return null;
    return Math.max(0, totalBytes - last.bytes) / rate;
  }

  reset() {
    this.samples = [];
  }
}

/** "a few seconds left", "about 15 seconds left", "about 3 minutes left", "about 2 hours left", in the page's language. */
export function describeTimeLeft(seconds: number, intl: IntlShape = currentIntl()): string {
  if (seconds < 10) return intl.formatMessage({ id: 'upload.eta.seconds', defaultMessage: 'a few seconds left' });
  if (seconds < 60) {
    return intl.formatMessage(
      { id: 'upload.eta.aboutSeconds', defaultMessage: 'about {seconds, plural, one {# second} other {# seconds}} left' },
      { seconds: Math.round(seconds / 5) * 5 },
    );
  }
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) {
    return intl.formatMessage({ id: 'upload.eta.aboutMinutes', defaultMessage: 'about {minutes, plural, one {a minute} other {# minutes}} left' }, { minutes });
  }
  const hours = Math.round(seconds / 360) / 10;
  return intl.formatMessage({ id: 'upload.eta.aboutHours', defaultMessage: 'about {hours, plural, one {an hour} other {# hours}} left' }, { hours });
}
