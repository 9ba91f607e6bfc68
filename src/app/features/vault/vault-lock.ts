import { useEffect, useSyncExternalStore } from 'react';
import type { MasterKey } from '../../../crypto';

/**
 * Whether the vault is open, and with what: the unlocked master key lives here, in this tab's memory only (never
 * in localStorage, IndexedDB or the query cache), and locking drops it. Kept outside React so navigating away from
 * /vault keeps it open, while signing out, another sign-in, the idle timer and the Lock button all close it.
 */
interface Unlocked {
  master: MasterKey;
  /** Whose vault it is: another user signing in in this tab never sees it open. */
  userId: string;
}

let unlocked: Unlocked | null = null;
let lastActivity = Date.now();
const listeners = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function unlockVaultWith(master: MasterKey, userId: string) {
  unlocked = { master, userId };
  lastActivity = Date.now();
  notify();
}

/** Drops the key: everything decrypted with it goes when the pages holding it see the vault locked. */
export function lockVault() {
  if (unlocked === null) return;
  unlocked = null;
  notify();
}

/** The open vault's key, if the signed-in user's vault is open in this tab. */
export function useVaultKey(userId: string): MasterKey | null {
  const current = useSyncExternalStore(subscribe, () => unlocked);
  return current?.userId === userId ? current.master : null;
}

/** Uploads and downloads in progress count as use: a long upload is not cut off by the idle timer. */
export function noteVaultActivity() {
  lastActivity = Date.now();
}

export const idleChoices = [5, 15, 30, 60, 240] as const;
export type IdleMinutes = (typeof idleChoices)[number];
const IDLE_STORAGE_KEY = 'parcel.vault.idleMinutes';
const DEFAULT_IDLE: IdleMinutes = 15;

/** The owner's choice of idle time (a preference, not a secret), per browser. */
export function idleMinutes(): IdleMinutes {
  try {
    const stored = Number(window.localStorage.getItem(IDLE_STORAGE_KEY));
    return (idleChoices as readonly number[]).includes(stored) ? (stored as IdleMinutes) : DEFAULT_IDLE;
  } catch {
    return DEFAULT_IDLE;
  }
}

export function setIdleMinutes(minutes: IdleMinutes) {
  try {
    window.localStorage.setItem(IDLE_STORAGE_KEY, String(minutes));
  } catch {
    // Storage unavailable: the default applies next time.
  }
  lastActivity = Date.now();
  notify();
}

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;
const CHECK_EVERY_MS = 5_000;

/**
 * Locks the vault once nobody used this tab for the chosen idle time. Mounted with the signed-in shell, so it runs
 * on every page while the vault is open; a tab asleep in the background locks on its first check after waking.
 */
export function useIdleLock() {
  const isOpen = useSyncExternalStore(subscribe, () => unlocked !== null);
  useEffect(() => {
    if (!isOpen) return;
    const touch = () => noteVaultActivity();
    for (const event of ACTIVITY_EVENTS) window.addEventListener(event, touch, { passive: true, capture: true });
    const check = () => {
      if (Date.now() - lastActivity >= idleMinutes() * 60_000) lockVault();
    };
    const timer = window.setInterval(check, CHECK_EVERY_MS);
    document.addEventListener('visibilitychange', check);
    return () => {
      for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, touch, { capture: true });
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', check);
    };
  }, [isOpen]);
}
