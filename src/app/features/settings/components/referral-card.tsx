import { useSuspenseQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Card } from '../../../components/card';
import { CopyButton } from '../../../components/copy-button';
import { inputClass } from '../../../components/text-field';
import { formatInteger } from '../../../lib/format';
import { referralQueryOptions } from '../api/get-referral';

export function ReferralCard() {
  const { data: referral } = useSuspenseQuery(referralQueryOptions());
  const headingId = useId();
  const fieldId = useId();
  const months = referral.freeMonthsEarned;
  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        Invite others
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        You earn a free month for each workspace that signs up with your link and takes a paid plan.
      </p>
      <label htmlFor={fieldId} className="mt-4 block text-sm font-medium">
        Referral link
      </label>
      <div className="mt-1 flex flex-col gap-2 sm:flex-row sm:items-center">
        <input
          id={fieldId}
          readOnly
          value={referral.link}
          onFocus={(event) => event.target.select()}
          className={`${inputClass} font-mono`}
        />
        <CopyButton text={referral.link} />
      </div>
      <p className="mt-4 text-sm">
        Free months earned: <span className="font-semibold">{formatInteger(months)}</span>
      </p>
    </Card>
  );
}
