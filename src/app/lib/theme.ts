import { useCallback, useSyncExternalStore } from 'react';

/**
 * Dark mode: the user's explicit choice (stored) wins, otherwise the system preference.
 * public/theme-init.js applies the same rule before first paint; keep the two in step.
 */
export type Theme = 'light' | 'dark';

const storageKey = 'parcel-theme';
const systemQuery = '(prefers-color-scheme: dark)';
const listeners = new Set<() => void>();

function storedTheme(): Theme | null {
  try {
    const value = window.localStorage.getItem(storageKey);
    return value === 'dark' || value === 'light' ? value : null;
  } catch {
    return null;
  }
}

function systemTheme(): Theme {
  return typeof window.matchMedia === 'function' && window.matchMedia(systemQuery).matches ? 'dark' : 'light';
}

export function currentTheme(): Theme {
  return storedTheme() ?? systemTheme();
}

function apply() {
  document.documentElement.classList.toggle('dark', currentTheme() === 'dark');
  for (const listener of listeners) listener();
}

export function setTheme(theme: Theme) {
  try {
    window.localStorage.setItem(storageKey, theme);
  } catch {
    // Storage blocked: the choice lasts for this page only.
  }
  apply();
}

/** Calls `listener` whenever the theme changes (the toggle, or the system's when nothing was chosen). */
export function subscribeToTheme(listener: () => void) {
  listeners.add(listener);
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(systemQuery) : null;
  const onSystemChange = () => apply();
  media?.addEventListener('change', onSystemChange);
  return () => {
    listeners.delete(listener);
    media?.removeEventListener('change', onSystemChange);
  };
}

export function useTheme() {
  const theme = useSyncExternalStore(subscribeToTheme, currentTheme, () => 'light' as Theme);
  const toggle = useCallback(() => setTheme(currentTheme() === 'dark' ? 'light' : 'dark'), []);
  return { theme, toggle };
}
