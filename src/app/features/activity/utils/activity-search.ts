import type { SearchSchemaInput } from '@tanstack/react-router';
import { activityKinds, type ActivityKindName } from '../../../../contract/activity-kinds';

export const defaultActivitySearch = { actor: '', kind: '' } as const;

export interface ActivityFilters {
  /** A member (`usr_…`) or an API key (`key_…`); '' for everyone. */
  actor: string;
  kind: ActivityKindName | '';
}

/** The page's search params; anything unreadable means "everything", so an edited link still opens. */
export function validateActivitySearch(search: { actor?: unknown; kind?: unknown } & SearchSchemaInput): ActivityFilters {
  const actor = typeof search.actor === 'string' && /^(usr|key)_[0-9A-Za-z]{1,60}$/.test(search.actor) ? search.actor : '';
  const kind = activityKinds.includes(search.kind as ActivityKindName) ? (search.kind as ActivityKindName) : '';
  return { actor, kind };
}
