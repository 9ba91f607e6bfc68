import type { TransferSummary } from '../../../../contract/transfers';
import { Badge, type BadgeTone } from '../../../components/badge';
import { useIntl } from '../../../lib/intl';
import { linkState, linkStateLabels, type LinkState } from '../utils/transfer-display';

const tones: Record<LinkState, BadgeTone> = {
  draft: 'accent',
  arriving: 'accent',
  live: 'success',
  limit_reached: 'warning',
  expired: 'neutral',
  revoked: 'warning',
  infected: 'warning',
  unknown: 'neutral',
};

type Shown = Pick<TransferSummary, 'status' | 'finalizedAt' | 'sendRequestedAt' | 'e2ee' | 'expiresAt' | 'downloadCount' | 'maxDownloads' | 'title'>;

/**
 * What the link does now, as recipients find it: "Draft" while unsent (an unsent transfer is
 * `active` to the API, but its link does not work yet), "Files arriving" once sent while its URL
 * imports still run (its link says so until the last lands), "Active", "Limit reached", "Expired",
 * "Revoked" or "Infected"; an unknown status as it came.
 */
export function TransferStatusBadges({ transfer }: { transfer: Shown }) {
  const intl = useIntl();
  const state = linkState(transfer);
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <Badge tone={tones[state]}>{state === 'unknown' ? transfer.status : intl.formatMessage(linkStateLabels[state])}</Badge>
      {transfer.e2ee ? (
        <Badge tone="neutral">
          <svg aria-hidden="true" viewBox="0 0 16 16" className="me-1 size-3" fill="currentColor">
            <path d="M8 1a3.5 3.5 0 0 0-3.5 3.5V6H4a1 1 0 0 0-1 1v7a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1V7a1 1 0 0 0-1-1h-.5V4.5A3.5 3.5 0 0 0 8 1Zm2 5H6V4.5a2 2 0 1 1 4 0Z" />
          </svg>
          {intl.formatMessage({ id: 'transfers.badge.encrypted', defaultMessage: 'End-to-end encrypted' })}
        </Badge>
      ) : null}
    </span>
  );
}
