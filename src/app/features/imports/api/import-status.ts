import { queryOptions, useQueries } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ImportEntrySchema, ImportRequestSchema, ImportStatusSchema } from '../../../../contract/transfers';
import { isApiRequestError } from '../../../lib/api-error';
import { userDataRoot } from '../../../lib/query-keys';
import { v1Fetch } from '../../../lib/v1-client';

/** Where a URL import stands (`GET /imports/{fileId}`): `receivedBytes` of `size` (null until the origin said), then `ready` or `failed`. */
export type ImportStatus = z.output<typeof ImportStatusSchema>;
/** What an add-files answer says of each import it registered. */
export type ImportEntry = z.output<typeof ImportEntrySchema>;
/** One import to register: where the service fetches it, and the name it gets if not the origin's. */
export type ImportToAdd = Pick<z.input<typeof ImportRequestSchema>, 'url' | 'name'>;

export const importKeys = {
  status: (fileId: string) => [...userDataRoot, 'v1', 'imports', fileId] as const,
};

/**
 * How often a running import is asked after. The server moves `receivedBytes` one 32 MiB part at a
 * time, so asking more often would mostly hear the same answer.
 */
export const IMPORT_POLL_MS = 1500;

export function getImportStatus(fileId: string, signal?: AbortSignal): Promise<ImportStatus> {
  return v1Fetch<ImportStatus>(`/imports/${encodeURIComponent(fileId)}`, { signal });
}

export const isSettled = (status: ImportStatus | undefined) => status !== undefined && status.status !== 'importing';

/** A 4xx (the file was removed, say) answers the same every time: asking again would not help. */
const isRefused = (error: unknown) => isApiRequestError(error) && error.status >= 400 && error.status < 500;

function stillRunning(query: { state: { data: ImportStatus | undefined; error: unknown } }) {
  return !isSettled(query.state.data) && !isRefused(query.state.error);
}

/** One import's status, polled while the server fetches it and never again once it is ready or failed. */
export function importStatusQueryOptions(fileId: string) {
  return queryOptions({
    queryKey: importKeys.status(fileId),
    queryFn: ({ signal }) => getImportStatus(fileId, signal),
    refetchInterval: (query) => (stillRunning(query) ? IMPORT_POLL_MS : false),
    // A settled import never changes: no refetch on focus or remount.
    staleTime: (query) => (stillRunning(query) ? 0 : Infinity),
  });
}

/** What a row needs of one import's query: the last answer, and why asking failed if it did. */
export interface ImportStatusResult {
  status: ImportStatus | undefined;
  error: unknown;
}

/** The statuses of several imports at once (a list of them), by file id. */
export function useImportStatuses(fileIds: readonly string[]): ReadonlyMap<string, ImportStatusResult> {
  return useQueries({
    queries: fileIds.map((fileId) => importStatusQueryOptions(fileId)),
    combine: (results) => new Map(results.map((result, i) => [fileIds[i]!, { status: result.data, error: result.error }])),
  });
}
