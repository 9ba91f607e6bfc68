import type { SearchSchemaInput } from '@tanstack/react-router';
import { transferListSorts, transferListStatuses, type TransferListSort, type TransferListStatus } from '../api/get-transfers';

export const defaultTransfersSearch = { status: '', q: '', sort: '', sentBy: '' } as const;

export interface TransfersSearch {
  status: TransferListStatus | '';
  q: string;
  sort: TransferListSort | '';
  /** `me`: only the transfers the signed-in member sent; '' everyone's. */
  sentBy: 'me' | '';
}

const oneOf = <T extends string>(values: readonly T[], value: unknown): T | '' => (values.includes(value as T) ? (value as T) : '');

/**
 * The list's search params. Anything unreadable falls back to "all transfers", so an old or edited
 * link still opens. Written by hand, not with a schema library: route definitions are in the
 * first-load bundle of every page.
 */
export function validateTransfersSearch(search: { status?: unknown; q?: unknown; sort?: unknown; sentBy?: unknown } & SearchSchemaInput): TransfersSearch {
  // The router reads `?q=2026` as a number: take it back as the text it was.
  const q = typeof search.q === 'string' || typeof search.q === 'number' ? String(search.q).trim() : '';
  return { status: oneOf(transferListStatuses, search.status), q: q.length <= 200 ? q : '', sort: oneOf(transferListSorts, search.sort), sentBy: search.sentBy === 'me' ? 'me' : '' };
}
