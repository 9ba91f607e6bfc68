import { defineMessages, type MessageDescriptor } from 'react-intl';
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

const stateLabels = defineMessages({
  open: { id: 'requests.state.open', defaultMessage: 'Open' },
  paused: { id: 'requests.state.paused', defaultMessage: 'Paused' },
  deadline: { id: 'requests.state.deadlinePassed', defaultMessage: 'Deadline passed' },
  onHold: { id: 'requests.state.notAccepting', defaultMessage: 'Not accepting files' },
  closed: { id: 'requests.state.closed', defaultMessage: 'Closed' },
});

/** Each state's badge: its words (formatted where shown) and its colour. */
export const stateBadges: Record<RequestState, { label: MessageDescriptor; tone: BadgeTone }> = {
  open: { label: stateLabels.open, tone: 'success' },
  paused: { label: stateLabels.paused, tone: 'warning' },
  deadline: { label: stateLabels.deadline, tone: 'neutral' },
  on_hold: { label: stateLabels.onHold, tone: 'warning' },
  closed: { label: stateLabels.closed, tone: 'neutral' },
};
