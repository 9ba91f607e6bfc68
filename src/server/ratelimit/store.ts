import { Redis } from 'ioredis';

/**
 * Fixed-window counters. Windows are computed from the caller's clock, so tests can move time,
 * and every instance sharing a Redis agrees on the same windows.
 */
export interface RateLimitStore {
  /** Adds one hit to the window containing `nowMs` and returns the count so far and when the window ends. */
  hit(key: string, windowMs: number, nowMs: number): Promise<{ count: number; resetAtMs: number }>;
  /** The count so far in the window containing `nowMs`, without adding to it. */
  peek(key: string, windowMs: number, nowMs: number): Promise<number>;
  close(): Promise<void>;
}

function windowOf(windowMs: number, nowMs: number) {
  const start = Math.floor(nowMs / windowMs) * windowMs;
  return { start, resetAtMs: start + windowMs };
}

export class MemoryRateLimitStore implements RateLimitStore {
  private counters = new Map<string, { count: number; resetAtMs: number }>();
  private sweeps = 0;

  async hit(key: string, windowMs: number, nowMs: number) {
    const { start, resetAtMs } = windowOf(windowMs, nowMs);
    const id = `${key}:${start}`;
    const entry = this.counters.get(id) ?? { count: 0, resetAtMs };
    entry.count += 1;
    this.counters.set(id, entry);
    if (++this.sweeps % 1000 === 0) this.sweep(nowMs);
    return { count: entry.count, resetAtMs };
  }

  async peek(key: string, windowMs: number, nowMs: number) {
    return this.counters.get(`${key}:${windowOf(windowMs, nowMs).start}`)?.count ?? 0;
  }

  private sweep(nowMs: number) {
    for (const [id, entry] of this.counters) if (entry.resetAtMs <= nowMs) this.counters.delete(id);
  }

  async close() {
    this.counters.clear();
  }
}

export class RedisRateLimitStore implements RateLimitStore {
  constructor(private readonly redis: Redis, private readonly prefix = 'rl:') {}

  static connect(url: string, prefix?: string) {
    return new RedisRateLimitStore(new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false }), prefix);
  }

  async hit(key: string, windowMs: number, nowMs: number) {
    const { start, resetAtMs } = windowOf(windowMs, nowMs);
    const id = `${this.prefix}${key}:${start}`;
    const results = await this.redis.multi().incr(id).pexpire(id, windowMs + 1000).exec();
    const count = Number(results?.[0]?.[1] ?? 0);
    return { count, resetAtMs };
  }

  async peek(key: string, windowMs: number, nowMs: number) {
    return Number((await this.redis.get(`${this.prefix}${key}:${windowOf(windowMs, nowMs).start}`)) ?? 0);
  }

  async close() {
    await this.redis.quit();
  }
}
