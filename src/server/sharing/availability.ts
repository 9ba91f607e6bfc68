import type { LinkUnavailableReason } from '../../contract/public.js';
import { ApiError } from '../core/errors.js';
import { said, type Sentence } from '../core/sentences.js';

const REASON_TEXT: Record<LinkUnavailableReason, () => Sentence> = {
  expired: () => said({ id: 'api.sharing.expired', defaultMessage: 'This link has expired.' }),
  revoked: () => said({ id: 'api.sharing.revoked', defaultMessage: 'This link was revoked by its sender.' }),
  limit_reached: () => said({ id: 'api.sharing.limitReached', defaultMessage: 'This link has reached its download limit.' }),
  infected: () => said({ id: 'api.sharing.infected', defaultMessage: 'This transfer was blocked because a virus scan found malware in one of its files.' }),
  suspended: () => said({ id: 'api.sharing.suspended', defaultMessage: 'This link is not available right now.' }),
  deleted: () => said({ id: 'api.sharing.deleted', defaultMessage: 'The collection this link was for has been deleted.' }),
};

/** What a shared link of any owner answers when it no longer opens (410 `link_unavailable`, `details.reason`). */
export const linkUnavailable = (reason: LinkUnavailableReason) => new ApiError('link_unavailable', REASON_TEXT[reason](), { reason });
