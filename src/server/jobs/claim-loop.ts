import type { Services } from '../services.js';

/**
 * A worker loop over rows held by leases (URL imports, virus scans): claims up to `concurrency`
 * due ids at a time, runs each, and looks again as soon as a slot comes free, or every
 * `pollMs` when there was nothing to do. A row in flight when the loop stops is left to its lease:
 * another worker takes it over.
 */
export interface ClaimLoop {
  stop(): Promise<void>;
}

export function startClaimLoop(
  services: Pick<Services, 'log'>,
  options: { name: string; concurrency: number; pollMs: number; claim(limit: number): Promise<string[]>; run(id: string): Promise<void> },
): ClaimLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const running = new Set<Promise<void>>();
  const tick = async () => {
    timer = null;
    if (stopped) return;
    try {
      const free = options.concurrency - running.size;
      const ids = free > 0 ? await options.claim(free) : [];
      for (const id of ids) {
        const run = options.run(id).finally(() => {
          running.delete(run);
          if (!stopped && !timer) timer = setTimeout(() => void tick(), 0);
        });
        running.add(run);
      }
    } catch (err) {
      services.log.error({ err }, `${options.name} pass failed`);
    }
    if (!stopped && !timer) timer = setTimeout(() => void tick(), options.pollMs);
  };
  timer = setTimeout(() => void tick(), 0);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await Promise.race([Promise.allSettled([...running]), new Promise((resolve) => setTimeout(resolve, 2000))]);
    },
  };
}
