import { useCallback, useEffect, useRef, useState } from 'react';
import type { DownloadSession } from '../../../../contract/public';
import { createDownloadSession } from './public-api';

export function sessionExpired(session: DownloadSession, now: number = Date.now()): boolean {
  return Date.parse(session.expiresAt) <= now;
}

/**
 * One download session per page visit: started once the transfer is shown (and unlocked), kept in
 * component state only, and started again only when its links have expired and the visitor clicks
 * a download. A personal link's recipient token goes in the request body and nowhere else.
 */
export function useDownloadSession({
  slug,
  unlockToken,
  recipientToken,
  enabled,
}: {
  slug: string;
  unlockToken: string | null;
  recipientToken: string | undefined;
  enabled: boolean;
}) {
  const [session, setSession] = useState<DownloadSession | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const inFlight = useRef<Promise<DownloadSession> | null>(null);
  const startedFor = useRef<string | null>(null);

  const start = useCallback((): Promise<DownloadSession> => {
    if (inFlight.current) return inFlight.current;
    setPending(true);
    setError(null);
    const request = createDownloadSession(slug, unlockToken, recipientToken)
      .then(
        (created) => {
          setSession(created);
          return created;
        },
        (cause: unknown) => {
          setError(cause);
          throw cause;
        },
      )
      .finally(() => {
        inFlight.current = null;
        setPending(false);
      });
    inFlight.current = request;
    return request;
  }, [slug, unlockToken, recipientToken]);

  useEffect(() => {
    if (!enabled) return;
    // Once per visit (and per unlock), even when effects run twice in development.
    const key = `${slug}\n${unlockToken ?? ''}`;
    if (startedFor.current === key) return;
    startedFor.current = key;
    start().catch(() => {
      // Shown through `error`.
    });
  }, [enabled, slug, unlockToken, start]);

  /** The current session if its links still work, otherwise a new one. */
  const fresh = useCallback(
    (): Promise<DownloadSession> => (session && !sessionExpired(session) ? Promise.resolve(session) : start()),
    [session, start],
  );

  return { session, error, pending, retry: start, fresh };
}
