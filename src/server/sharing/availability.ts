import type { LinkUnavailableReason } from '../../contract/public.js';
import { ApiError } from '../core/errors.js';

const REASON_TEXT: Record<LinkUnavailableReason, string> = {
  expired: 'This link has expired.',
  revoked: 'This link was revoked by its sender.',
  limit_reached: 'This link has reached its download limit.',
  infected: 'This transfer was blocked because a virus scan found malware in one of its files.',
  suspended: 'This link is not available right now.',
  deleted: 'The collection this link was for has been deleted.',
};

/** What a shared link of any owner answers when it no longer opens (410 `link_unavailable`, `details.reason`). */
export const linkUnavailable = (reason: LinkUnavailableReason) => new ApiError('link_unavailable', REASON_TEXT[reason], { reason });
