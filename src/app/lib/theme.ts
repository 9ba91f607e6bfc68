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
  const root = document.documentElement;
  const dark = currentTheme() === 'dark';
  if (root.classList.contains('dark') !== dark) {
    // Switched with colour transitions off (styles.css), then on again once the new colours are computed,
    // so nothing is caught halfway between the two themes.
    root.classList.add('theme-switching');
    root.classList.toggle('dark', dark);
    void root.offsetHeight;
    requestAnimationFrame(() => root.classList.remove('theme-switching'));
  }
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
