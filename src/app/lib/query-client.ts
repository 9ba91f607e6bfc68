import { QueryClient } from '@tanstack/react-query';
import { isApiRequestError } from './api-error';

/** A 4xx will answer the same on a retry; anything else (network, 5xx) gets two more tries. */
function shouldRetry(failureCount: number, error: unknown) {
  if (isApiRequestError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry },
    },
  });
}
