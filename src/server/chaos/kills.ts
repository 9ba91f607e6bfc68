/**
 * Kills timed by the clients' progress: each falls when the bytes sent so far cross a threshold
 * drawn at random, so that every kill lands while uploads are in flight (a timer could fire after
 * the last byte, or between two uploads, on a fast machine) and a seed replays the same moments.
 */
export class KillSchedule {
  private readonly thresholds: number[];
  private sent = 0;
  private readonly restarts = new Set<Promise<void>>();
  private failure: unknown = null;
  /** Kills made so far. */
  kills = 0;

  /**
   * `count` thresholds, one in each of `count` equal slices of the first 85% of `totalBytes`.
   * `kill` takes down what is up now (a SIGKILL sent, synchronously) and returns the promise of its
   * restart, or null when everything is down already (the kill waits for the next bytes then).
   */
  constructor(
    count: number,
    totalBytes: number,
    random: () => number,
    private readonly kill: () => Promise<void> | null,
  ) {
    const slice = (0.85 * totalBytes) / Math.max(1, count);
    this.thresholds = Array.from({ length: count }, (_, i) => Math.floor(slice * (i + random())));
  }

  /** Bytes the clients sent; kills at once when a threshold is crossed. */
  onBytesSent = (n: number) => {
    this.sent += n;
    if (this.thresholds.length === 0 || this.sent < this.thresholds[0]!) return;
    const restart = this.kill();
    if (!restart) return;
    this.thresholds.shift();
    this.kills++;
    const tracked: Promise<void> = restart.catch((err: unknown) => void (this.failure ??= err)).finally(() => this.restarts.delete(tracked));
    this.restarts.add(tracked);
  };

  /** Waits for every restart still under way; throws if one failed. */
  async settled(): Promise<void> {
    while (this.restarts.size > 0) await Promise.all([...this.restarts]);
    if (this.failure) throw this.failure;
  }
}
