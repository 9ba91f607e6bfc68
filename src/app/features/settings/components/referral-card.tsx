import { useSuspenseQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Card } from '../../../components/card';
import { CopyField } from '../../../components/copy-field';
import { formatInteger } from '../../../lib/format';
import { referralQueryOptions } from '../api/get-referral';

export function ReferralCard() {
  const { data: referral } = useSuspenseQuery(referralQueryOptions());
  const headingId = useId();
  const months = referral.freeMonthsEarned;
  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        Invite others
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        You earn a free month for each workspace that signs up with your link and takes a paid plan.
      </p>
      <CopyField label="Referral link" value={referral.link} className="mt-4" />
      <p className="mt-4 text-sm">
        Free months earned: <span className="font-semibold">{formatInteger(months)}</span>
      </p>
    </Card>
  );
}
