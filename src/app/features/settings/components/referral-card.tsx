import { useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import type { IntlShape } from 'react-intl';
import type { Referral } from '../../../../contract/me';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { CopyField } from '../../../components/copy-field';
import { formatInteger } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { referralQueryOptions } from '../api/get-referral';

/** The rule in one sentence, from what the server reports: its operator may change it, or turn earning off. */
function describeReferralRule(rule: Referral['rule'], intl: IntlShape): string {
  if (!earnsMonths(rule)) return intl.formatMessage({ id: 'settings.referral.ruleInviteOnly', defaultMessage: 'Share your link to invite others to create a workspace.' });
  const values = { months: rule.monthsPerReferral, max: rule.maxFreeMonths };
  return rule.earnsOn === 'paid'
    ? intl.formatMessage(
        {
          id: 'settings.referral.ruleOnPaid',
          defaultMessage:
            'You earn {months, plural, one {# free month} other {# free months}} for each workspace that signs up with your link and takes a paid plan, up to {max, plural, one {# month} other {# months}}.',
        },
        values,
      )
    : intl.formatMessage(
        {
          id: 'settings.referral.ruleOnSignUp',
          defaultMessage:
            'You earn {months, plural, one {# free month} other {# free months}} for each workspace that signs up with your link, up to {max, plural, one {# month} other {# months}}.',
        },
        values,
      );
}

const earnsMonths = (rule: Referral['rule']) => rule.monthsPerReferral > 0 && rule.maxFreeMonths > 0;

export function ReferralCard() {
  const intl = useIntl();
  const { data: referral } = useSuspenseQuery(referralQueryOptions());
  const headingId = useId();
  const ruleId = useId();
  const { rule } = referral;
  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        {intl.formatMessage({ id: 'settings.referral.heading', defaultMessage: 'Invite others' })}
      </h2>
      <p id={ruleId} className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {describeReferralRule(rule, intl)}
      </p>
      <CopyField
        label={intl.formatMessage({ id: 'settings.referral.linkLabel', defaultMessage: 'Referral link' })}
        value={referral.link}
        describedBy={ruleId}
        className="mt-4"
      />
      <ShareReferralLink link={referral.link} />
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        <Fact term={intl.formatMessage({ id: 'settings.referral.code', defaultMessage: 'Referral code' })}>
          <span className="font-mono">{referral.code}</span>
        </Fact>
        <Fact term={intl.formatMessage({ id: 'settings.referral.signups', defaultMessage: 'Sign-ups through your link' })}>
          {earnsMonths(rule) && rule.earnsOn === 'paid' && referral.signups > 0
            ? intl.formatMessage(
                { id: 'settings.referral.signupsWithPaid', defaultMessage: '{signups}, {paid} took a paid plan' },
                { signups: formatInteger(referral.signups), paid: formatInteger(referral.qualifyingSignups) },
              )
            : formatInteger(referral.signups)}
        </Fact>
        {earnsMonths(rule) ? (
          <Fact term={intl.formatMessage({ id: 'settings.referral.monthsEarned', defaultMessage: 'Free months earned' })}>
            {referral.freeMonthsEarned >= rule.maxFreeMonths
              ? intl.formatMessage(
                  { id: 'settings.referral.monthsEarnedMost', defaultMessage: '{months}, the most you can earn' },
                  { months: formatInteger(referral.freeMonthsEarned) },
                )
              : formatInteger(referral.freeMonthsEarned)}
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
  const intl = useIntl();
  const [failed, setFailed] = useState(false);
  if (typeof navigator === 'undefined' || typeof navigator.share !== 'function') return null;

  async function share() {
    setFailed(false);
    try {
      await navigator.share({
        title: intl.formatMessage({ id: 'settings.referral.shareTitle', defaultMessage: 'Join me on Parcel' }),
        text: intl.formatMessage({ id: 'settings.referral.shareText', defaultMessage: 'Send and collect files with Parcel. Sign up with my invite link:' }),
        url: link,
      });
    } catch (err) {
      // Closing the share sheet is a choice, not a failure.
      if (!(err instanceof DOMException && err.name === 'AbortError')) setFailed(true);
    }
  }

  return (
    <div className="mt-2 flex flex-wrap items-center gap-2">
      <Button variant="secondary" onClick={share}>
        {intl.formatMessage({ id: 'settings.referral.share', defaultMessage: 'Share' })}
      </Button>
      {failed ? (
        <span role="alert" className="text-sm text-red-700 dark:text-red-400">
          {intl.formatMessage({ id: 'settings.referral.shareFailed', defaultMessage: 'Could not share. Copy the link instead.' })}
        </span>
      ) : null}
    </div>
  );
}
