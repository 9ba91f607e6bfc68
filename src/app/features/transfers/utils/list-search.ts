import * as z from 'zod/mini';
import { transferListSorts, transferListStatuses } from '../api/get-transfers';

export const defaultTransfersSearch = { status: '', q: '', sort: '' } as const;

/**
 * The list's search params (zod/mini: this sits in the first-load bundle). Anything unreadable
 * falls back to "all transfers", so an old or edited link still opens.
 */
export const transfersSearchSchema = z.object({
  status: z.catch(z._default(z.enum(['', ...transferListStatuses]), ''), ''),
  // The router reads `?q=2026` as a number: take it back as the text it was.
  q: z.catch(z._default(z.coerce.string().check(z.trim(), z.maxLength(200)), ''), ''),
  sort: z.catch(z._default(z.enum(['', ...transferListSorts]), ''), ''),
});
