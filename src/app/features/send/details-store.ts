import type { NotificationSettings } from '../../../contract/dashboard';
import type { Locale } from '../../../contract/locales';

/** What the sender typed, kept across closing the tab. Never the password: it is stored on the draft, hashed. */
export interface TypedDetails {
  title: string;
  message: string;
  recipientsText: string;
  expiryDays: string;
  maxDownloads: string;
  /** The language chosen for a recipient's mail, by address (absent in what older visits kept). */
  recipientLanguages?: Partial<Record<string, Locale>>;
  /** Null: the workspace's defaults. */
  notifications: NotificationSettings | null;
}

/** Send was pressed before the uploads finished: the draft is sent when they do. */
export interface PendingSend {
  transferId: string | null;
  /** The password typed then was stored on the draft; an empty field later keeps it. */
  passwordOnDraft: boolean;
}

export interface StoredDetails {
  details: TypedDetails;
  pending: PendingSend | null;
}

export const detailsStorageKey = (workspaceId: string) => `parcel.send.details.${workspaceId}`;

function storage(): Storage | undefined {
  return typeof window === 'undefined' ? undefined : window.localStorage;
}

const isString = (v: unknown): v is string => typeof v === 'string';

function parse(raw: string): StoredDetails | null {
  const value = JSON.parse(raw) as Partial<StoredDetails> | null;
  const d = value?.details;
  if (!d || ![d.title, d.message, d.recipientsText, d.expiryDays, d.maxDownloads].every(isString)) return null;
  const n = d.notifications;
  const notifications = n && typeof n.downloads === 'boolean' && typeof n.beforeExpiry === 'boolean' ? { downloads: n.downloads, beforeExpiry: n.beforeExpiry } : null;
  const p = value.pending;
  const pending = p && (p.transferId === null || isString(p.transferId)) ? { transferId: p.transferId, passwordOnDraft: p.passwordOnDraft === true } : null;
  return { details: { ...d, notifications }, pending };
}

export function loadDetails(workspaceId: string, store: Storage | undefined = storage()): StoredDetails | null {
  try {
    const raw = store?.getItem(detailsStorageKey(workspaceId));
    return raw ? parse(raw) : null;
  } catch {
    return null;
  }
}

export function saveDetails(workspaceId: string, value: StoredDetails, store: Storage | undefined = storage()) {
  try {
    store?.setItem(detailsStorageKey(workspaceId), JSON.stringify(value));
  } catch {
    // Storage full or disabled: keeping the typed details is a convenience.
  }
}

export function forgetDetails(workspaceId: string, store: Storage | undefined = storage()) {
  try {
    store?.removeItem(detailsStorageKey(workspaceId));
  } catch {
    // Nothing was kept either.
  }
}
