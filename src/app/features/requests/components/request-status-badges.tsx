import type { UploadRequest } from '../../../../contract/requests';
import { Badge } from '../../../components/badge';
import { deadlinePassed, requestState, stateBadges } from '../utils/request-status';

/** The request's state: open, paused, past its deadline, not accepting (plan), or closed. */
export function RequestStatusBadges({ request }: { request: Pick<UploadRequest, 'status' | 'acceptingFiles' | 'deadline'> }) {
  const state = requestState(request);
  const { label, tone } = stateBadges[state];
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <span className="sr-only">Status: </span>
      <Badge tone={tone}>{label}</Badge>
      {/* Resuming alone would not open it again: the deadline has to move too. */}
      {state === 'paused' && deadlinePassed(request) ? <Badge tone="neutral">Deadline passed</Badge> : null}
    </span>
  );
}
