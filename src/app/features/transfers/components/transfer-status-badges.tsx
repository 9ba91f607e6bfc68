import type { TransferSummary } from '../../../../contract/transfers';
import { Badge, type BadgeTone } from '../../../components/badge';
import { isDraft, statusLabel } from '../utils/transfer-display';

const tones: Record<string, BadgeTone> = { active: 'success', expired: 'neutral', removed: 'warning', infected: 'warning' };

/**
 * The status, plus "Draft" while unsent. An unsent transfer is `active` to the API, but calling it
 * that would suggest its link works, so a live draft shows only "Draft".
 */
export function TransferStatusBadges({ transfer }: { transfer: Pick<TransferSummary, 'status' | 'finalizedAt' | 'e2ee'> }) {
  const draft = isDraft(transfer);
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      {draft && transfer.status === 'active' ? null : <Badge tone={tones[transfer.status] ?? 'neutral'}>{statusLabel(transfer.status)}</Badge>}
      {draft ? <Badge tone="accent">Draft</Badge> : null}
      {transfer.e2ee ? (
        <Badge tone="neutral">
          <svg aria-hidden="true" viewBox="0 0 16 16" className="mr-1 size-3" fill="currentColor">
            <path d="M8 1a3.5 3.5 0 0 0-3.5 3.5V6H4a1 1 0 0 0-1 1v7a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1V7a1 1 0 0 0-1-1h-.5V4.5A3.5 3.5 0 0 0 8 1Zm2 5H6V4.5a2 2 0 1 1 4 0Z" />
          </svg>
          End-to-end encrypted
        </Badge>
      ) : null}
    </span>
  );
}
