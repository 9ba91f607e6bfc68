import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { RenderedPage } from '../../contract/public-page';
import { formatDateTime, formatRelativeTime } from './format';

/**
 * What a server-rendered public page (src/app/entry-server.tsx) was rendered with that the
 * browser cannot know by itself: the moment (for "in 3 days") and the locale of its dates. The
 * server writes them on `#root` (`data-ssr-at`, `data-ssr-locale`) and the browser's hydration
 * renders with the same values, so its first render matches the server's HTML exactly. Dates are
 * written in UTC there (the server does not know the visitor's time zone); right after hydration
 * they are rendered again in the visitor's own.
 */
export type ServerRender = Omit<RenderedPage, 'html'>;

const ServerRenderContext = createContext<ServerRender | null>(null);

export function ServerRenderProvider({ value, children }: { value: ServerRender | null; children: ReactNode }) {
  return <ServerRenderContext.Provider value={value}>{children}</ServerRenderContext.Provider>;
}

const noSubscription = () => () => {};

/**
 * False while rendering on the server and during the browser's hydration of that render; true in
 * any other render (a page rendered by the browser alone is never "hydrating").
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

const utcFormats = new Map<string, Intl.DateTimeFormat>();
function utcDateTime(iso: string, locale: string): string {
  let format = utcFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
    utcFormats.set(locale, format);
  }
  return format.format(new Date(iso));
}

/** A date and time as the page shows it: the visitor's own, except in a server render and its hydration (see ServerRender). */
export function DateTimeText({ iso }: { iso: string }) {
  const server = useContext(ServerRenderContext);
  const hydrated = useHydrated();
  return <>{server && !hydrated ? utcDateTime(iso, server.locale) : formatDateTime(iso)}</>;
}

/** "in 3 days", from the moment of the server render while it and its hydration are on screen. */
export function RelativeTimeText({ iso }: { iso: string }) {
  const server = useContext(ServerRenderContext);
  const hydrated = useHydrated();
  return <>{server && !hydrated ? formatRelativeTime(iso, server.renderedAt) : formatRelativeTime(iso)}</>;
}
