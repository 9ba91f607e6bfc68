import type { UploadRequest } from '../../../../contract/requests';
import { Badge } from '../../../components/badge';
import { useIntl } from '../../../lib/intl';
import { deadlinePassed, requestState, stateBadges } from '../utils/request-status';

/** The request's state: open, paused, past its deadline, not accepting (plan), or closed. */
export function RequestStatusBadges({ request }: { request: Pick<UploadRequest, 'status' | 'acceptingFiles' | 'deadline'> }) {
  const intl = useIntl();
  const state = requestState(request);
  const { label, tone } = stateBadges[state];
  const statusLabel = intl.formatMessage({ id: 'requests.statusBadges.status', defaultMessage: 'Status:' });
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <span className="sr-only">{statusLabel} </span>
      <Badge tone={tone}>{intl.formatMessage(label)}</Badge>
      {/* Resuming alone would not open it again: the deadline has to move too. */}
      {state === 'paused' && deadlinePassed(request) ? <Badge tone="neutral">{intl.formatMessage(stateBadges.deadline.label)}</Badge> : null}
    </span>
  );
}
