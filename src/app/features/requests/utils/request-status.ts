import type { BadgeTone } from '../../../components/badge';
import type { UploadRequest } from '../../../../contract/requests';

/**
 * What a request's page does now, as the owner needs to know it: `open` and taking files;
 * `paused` by the owner; past its `deadline`; `on_hold` (open, but the workspace's paid plan ended,
 * so the page takes nothing); `closed` for good.
 */
export type RequestState = 'open' | 'paused' | 'deadline' | 'on_hold' | 'closed';

export function deadlinePassed(request: Pick<UploadRequest, 'deadline'>, now = Date.now()): boolean {
  return request.deadline !== null && Date.parse(request.deadline) <= now;
}

/** The server's `acceptingFiles` decides whether an open request takes files; the clock only says why not. */
export function requestState(request: Pick<UploadRequest, 'status' | 'acceptingFiles' | 'deadline'>, now = Date.now()): RequestState {
  if (request.status === 'closed') return 'closed';
  if (request.status === 'paused') return 'paused';
  if (request.acceptingFiles) return 'open';
  return deadlinePassed(request, now) ? 'deadline' : 'on_hold';
}

export const stateBadges: Record<RequestState, { label: string; tone: BadgeTone }> = {
  open: { label: 'Open', tone: 'success' },
  paused: { label: 'Paused', tone: 'warning' },
  deadline: { label: 'Deadline passed', tone: 'neutral' },
  on_hold: { label: 'Not accepting files', tone: 'warning' },
  closed: { label: 'Closed', tone: 'neutral' },
};
