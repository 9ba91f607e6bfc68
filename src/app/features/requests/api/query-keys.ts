import { userDataRoot } from '../../../lib/query-keys';

/** Every key of this feature, so a mutation can name exactly what it changed. */
export const requestKeys = {
  all: [...userDataRoot, 'v1', 'requests'] as const,
  list: [...userDataRoot, 'v1', 'requests', 'list'] as const,
  detail: (id: string) => [...userDataRoot, 'v1', 'requests', 'detail', id] as const,
  submissions: (id: string) => [...userDataRoot, 'v1', 'requests', 'submissions', id] as const,
};
