import { useCallback, useSyncExternalStore } from 'react';

/**
 * The sender's own names for end-to-end encrypted transfers, kept in this browser only (localStorage,
 * one entry per transfer id) and never sent to the service: the service cannot know such a
 * transfer's title, so without a label several of them look alike in the list and on their pages.
 */
export const transferLabelKey = (transferId: string) => `parcel.transfer-label.${transferId}`;

export const MAX_LABEL_LENGTH = 100;

const listeners = new Set<() => void>();

function storage(): Storage | undefined {
  return typeof window === 'undefined' ? undefined : window.localStorage;
}

export function transferLabel(transferId: string): string | null {
  try {
    return storage()?.getItem(transferLabelKey(transferId)) || null;
  } catch {
    return null;
  }
}

/** Sets (or, with an empty text, removes) the label; every component showing it follows. */
export function setTransferLabel(transferId: string, label: string) {
  const text = label.trim().slice(0, MAX_LABEL_LENGTH);
  try {
    if (text) storage()?.setItem(transferLabelKey(transferId), text);
    else storage()?.removeItem(transferLabelKey(transferId));
  } catch {
    // Storage full or disabled: the label is a convenience.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab changed a label.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith('parcel.transfer-label.')) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The label of a transfer and a way to change it. */
export function useTransferLabel(transferId: string): [string | null, (label: string) => void] {
  const label = useSyncExternalStore(
    subscribe,
    () => transferLabel(transferId),
    () => null,
  );
  const set = useCallback((next: string) => setTransferLabel(transferId, next), [transferId]);
  return [label, set];
}
