import { describe, expect, it } from 'vitest';
import { describeTimeLeft, UploadEta } from './upload-eta';

const MB = 1_000_000;

/**
 * An 80 MB upload at a steady 5 MB/s as the browser reports it: progress events in bursts (a
 * 1.3 MB jump, then nothing for a quarter second) rather than a smooth line.
 */
function simulate(eta: UploadEta, untilFraction: number, total = 80 * MB, bytesPerSecond = 5 * MB) {
  let t = 0;
  let sent = 0;
  while (sent < total * untilFraction) {
    t += 260;
    sent = Math.min(total, Math.floor(((t / 1000) * bytesPerSecond) / (1.3 * MB)) * 1.3 * MB);
    eta.record(t, sent);
  }
  return { t, sent };
}

describe('time left for the uploads', () => {
  it('is close to the truth at 14 % of an 80 MB file at 5 MB/s, where the old estimate said 0 s', () => {
    const eta = new UploadEta();
    const { t, sent } = simulate(eta, 0.14);
    const truth = (80 * MB - sent) / (5 * MB);
    const estimate = eta.secondsLeft(t, 80 * MB)!;
    expect(estimate).toBeGreaterThan(truth * 0.8);
    expect(estimate).toBeLessThan(truth * 1.25);
  });

  it('says about 15 seconds with 15 seconds to go, not 2-4', () => {
    const eta = new UploadEta();
    const { t, sent } = simulate(eta, 125 / 200, 200 * MB);
    const estimate = eta.secondsLeft(t, 200 * MB)!;
    expect((200 * MB - sent) / (5 * MB)).toBeCloseTo(15, 0);
    expect(describeTimeLeft(estimate)).toBe('about 15 seconds left');
  });

  it('gives no estimate before it has seen a few seconds of progress, nor for a paused upload', () => {
    const eta = new UploadEta();
    eta.record(0, 0);
    eta.record(500, 5 * MB);
    expect(eta.secondsLeft(500, 80 * MB)).toBeNull();
    const stalled = new UploadEta();
    stalled.record(0, 10 * MB);
    stalled.record(5000, 10 * MB);
    expect(stalled.secondsLeft(5000, 80 * MB)).toBeNull();
  });

  it('slows its estimate when progress stalls, rather than counting down to zero', () => {
    const eta = new UploadEta();
    const { t } = simulate(eta, 0.5);
    const before = eta.secondsLeft(t, 80 * MB)!;
    expect(eta.secondsLeft(t + 10_000, 80 * MB)!).toBeGreaterThan(before);
  });

  it('starts over when the uploaded total goes down (a file removed)', () => {
    const eta = new UploadEta();
    simulate(eta, 0.5);
    eta.record(20_000, 1 * MB);
    expect(eta.secondsLeft(20_000, 80 * MB)).toBeNull();
  });

  it('reads as people say it', () => {
    expect(describeTimeLeft(4)).toBe('a few seconds left');
    expect(describeTimeLeft(43)).toBe('about 45 seconds left');
    expect(describeTimeLeft(70)).toBe('about a minute left');
    expect(describeTimeLeft(600)).toBe('about 10 minutes left');
    expect(describeTimeLeft(5400)).toBe('about 1.5 hours left');
  });
});
