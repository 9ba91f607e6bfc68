import { useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import type { Referral } from '../../../../contract/me';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { CopyField } from '../../../components/copy-field';
import { formatInteger, plural } from '../../../lib/format';
import { referralQueryOptions } from '../api/get-referral';

/** The rule in one sentence, from what the server reports: its operator may change it, or turn earning off. */
function describeReferralRule(rule: Referral['rule']): string {
  if (!earnsMonths(rule)) return 'Share your link to invite others to create a workspace.';
  const when = rule.earnsOn === 'paid' ? 'signs up with your link and takes a paid plan' : 'signs up with your link';
  return `You earn ${plural(rule.monthsPerReferral, 'free month', 'free months')} for each workspace that ${when}, up to ${plural(rule.maxFreeMonths, 'month', 'months')}.`;
}

const earnsMonths = (rule: Referral['rule']) => rule.monthsPerReferral > 0 && rule.maxFreeMonths > 0;

export function ReferralCard() {
  const { data: referral } = useSuspenseQuery(referralQueryOptions());
  const headingId = useId();
  const ruleId = useId();
  const { rule } = referral;
  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        Invite others
      </h2>
      <p id={ruleId} className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {describeReferralRule(rule)}
      </p>
      <CopyField label="Referral link" value={referral.link} describedBy={ruleId} className="mt-4" />
      <ShareReferralLink link={referral.link} />
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        <Fact term="Referral code">
          <span className="font-mono">{referral.code}</span>
        </Fact>
        <Fact term="Sign-ups through your link">
          {formatInteger(referral.signups)}
          {earnsMonths(rule) && rule.earnsOn === 'paid' && referral.signups > 0 ? `, ${formatInteger(referral.qualifyingSignups)} took a paid plan` : null}
        </Fact>
        {earnsMonths(rule) ? (
          <Fact term="Free months earned">
            {formatInteger(referral.freeMonthsEarned)}
            {referral.freeMonthsEarned >= rule.maxFreeMonths ? ', the most you can earn' : null}
          </Fact>
        ) : null}
      </dl>
    </Card>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-zinc-600 dark:text-zinc-400">{term}</dt>
      <dd className="min-w-0 break-words font-medium">{children}</dd>
    </>
  );
}

/**
 * The system share sheet, where the browser has one (phones, mostly). Elsewhere nothing is shown:
 * the Copy button beside the link already does the job.
 */
function ShareReferralLink({ link }: { link: string }) {
  const [failed, setFailed] = useState(false);
  if (typeof navigator === 'undefined' || typeof navigator.share !== 'function') return null;

  async function share() {
    setFailed(false);
    try {
      await navigator.share({ title: 'Join me on Parcel', text: 'Send and collect files with Parcel. Sign up with my invite link:', url: link });
    } catch (err) {
      // Closing the share sheet is a choice, not a failure.
      if (!(err instanceof DOMException && err.name === 'AbortError')) setFailed(true);
    }
  }

  return (
    <div className="mt-2 flex flex-wrap items-center gap-2">
      <Button variant="secondary" onClick={share}>
        Share
      </Button>
      {failed ? (
        <span role="alert" className="text-sm text-red-700 dark:text-red-400">
          Could not share. Copy the link instead.
        </span>
      ) : null}
    </div>
  );
}
