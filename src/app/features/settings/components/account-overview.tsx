import { useSuspenseQuery } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { defineMessages, type IntlShape, type MessageDescriptor } from 'react-intl';
import type { Me } from '../../../../contract/me';
import { PlanBadge } from '../../../components/badge';
import { Card } from '../../../components/card';
import { CopyField } from '../../../components/copy-field';
import { formatBytes, formatDate, formatEuros, formatInteger, formatMonth } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { meQueryOptions } from '../../../lib/me';
import { vaultUsageQueryOptions, type getVaultUsage } from '../../vault';
import { RenameWorkspace } from './rename-workspace';

export function AccountOverview() {
  const { data: me } = useSuspenseQuery(meQueryOptions());
  const { data: vault } = useSuspenseQuery(vaultUsageQueryOptions());
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <WorkspaceCard me={me} />
      <PlanCard me={me} />
      <UsageCard me={me} vault={vault} />
    </div>
  );
}

function CardHeading({ id, children }: { id: string; children: ReactNode }) {
  return (
    <h2 id={id} className="mb-4 text-lg font-semibold">
      {children}
    </h2>
  );
}

function Facts({ children }: { children: ReactNode }) {
  return <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">{children}</dl>;
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-zinc-600 dark:text-zinc-400">{term}</dt>
      <dd className="min-w-0 break-words font-medium">{children}</dd>
    </>
  );
}

function WorkspaceCard({ me }: { me: Me }) {
  const intl = useIntl();
  const headingId = useId();
  return (
    <Card aria-labelledby={headingId}>
      <CardHeading id={headingId}>{intl.formatMessage({ id: 'settings.workspace.heading', defaultMessage: 'Workspace' })}</CardHeading>
      <RenameWorkspace name={me.workspace.name} />
      <Facts>
        <Fact term={intl.formatMessage({ id: 'settings.workspace.created', defaultMessage: 'Created' })}>{formatDate(me.workspace.createdAt)}</Fact>
        {me.workspace.customDomain ? (
          <Fact term={intl.formatMessage({ id: 'settings.workspace.customDomain', defaultMessage: 'Custom domain' })}>{me.workspace.customDomain}</Fact>
        ) : null}
        <Fact term={intl.formatMessage({ id: 'settings.workspace.virusScanning', defaultMessage: 'Virus scanning' })}>
          {me.scanning.enabled
            ? intl.formatMessage({ id: 'settings.workspace.scanningOn', defaultMessage: 'On: every file is checked for malware before anyone can download it' })
            : intl.formatMessage({
                id: 'settings.workspace.scanningOff',
                defaultMessage: 'Off: this server does not check files for malware (its operator has not set up a virus scanner)',
              })}
        </Fact>
      </Facts>
      <CopyField label={intl.formatMessage({ id: 'settings.workspace.idLabel', defaultMessage: 'Workspace id' })} value={me.workspace.id} className="mt-4" />
    </Card>
  );
}

function describeExpiry(expiry: Me['plan']['limits']['transferExpiry'], intl: IntlShape): string {
  if (!expiry.choosable)
    return intl.formatMessage({ id: 'settings.plan.expiryFixed', defaultMessage: 'After {days, plural, one {# day} other {# days}}' }, { days: expiry.defaultDays });
  return intl.formatMessage(
    {
      id: 'settings.plan.expiryChoosable',
      defaultMessage:
        'After {days, plural, one {# day} other {# days}} by default; you choose from {minHours, plural, one {# hour} other {# hours}} to {maxDays, plural, one {# day} other {# days}}',
    },
    { days: expiry.defaultDays, minHours: expiry.minimumHours, maxDays: expiry.maximumDays },
  );
}

/** The plan and its limits; on a server that bills nobody (`plan.billing` off) only the limits, with no plan, end date or credit. */
function PlanCard({ me }: { me: Me }) {
  const intl = useIntl();
  const headingId = useId();
  const { plan } = me;
  const billed = plan.billing === 'on';
  return (
    <Card aria-labelledby={headingId}>
      <CardHeading id={headingId}>
        {billed
          ? intl.formatMessage({ id: 'settings.plan.heading', defaultMessage: 'Plan' })
          : intl.formatMessage({ id: 'settings.plan.limitsHeading', defaultMessage: 'Limits' })}
      </CardHeading>
      <Facts>
        {billed ? (
          <>
            <Fact term={intl.formatMessage({ id: 'settings.plan.plan', defaultMessage: 'Plan' })}>
              <PlanBadge plan={plan.name} />
            </Fact>
            <Fact term={intl.formatMessage({ id: 'settings.plan.ends', defaultMessage: 'Ends' })}>
              {plan.name === 'paid'
                ? plan.until
                  ? formatDate(plan.until)
                  : intl.formatMessage({ id: 'settings.plan.runsUntilChanged', defaultMessage: 'Runs until changed' })
                : intl.formatMessage({ id: 'settings.plan.noEndDate', defaultMessage: 'No end date' })}
            </Fact>
            <Fact term={intl.formatMessage({ id: 'settings.plan.credit', defaultMessage: 'Credit' })}>{formatEuros(me.usage.creditEur)}</Fact>
          </>
        ) : null}
        <Fact term={intl.formatMessage({ id: 'settings.plan.rateLimits', defaultMessage: 'Rate limits' })}>
          {intl.formatMessage(
            {
              id: 'settings.plan.rateLimitsValue',
              defaultMessage: '{perMinute, plural, one {# call} other {# calls}} a minute per key, {perDay, number} a day per workspace',
            },
            { perMinute: plan.limits.ratePerKeyPerMinute, perDay: plan.limits.ratePerWorkspacePerDay },
          )}
        </Fact>
        <Fact term={intl.formatMessage({ id: 'settings.plan.largestTransfer', defaultMessage: 'Largest transfer' })}>{formatBytes(plan.limits.transferMaxBytes)}</Fact>
        <Fact term={intl.formatMessage({ id: 'settings.plan.transfersExpire', defaultMessage: 'Transfers expire' })}>
          {describeExpiry(plan.limits.transferExpiry, intl)}
        </Fact>
        <Fact term={intl.formatMessage({ id: 'settings.plan.webhookEndpoints', defaultMessage: 'Webhook endpoints' })}>
          {formatInteger(plan.limits.webhookEndpoints)}
        </Fact>
      </Facts>
    </Card>
  );
}

type VaultUsage = Awaited<ReturnType<typeof getVaultUsage>>;

/** What has been used of what is allowed; `{used}` is the amount used, shown large. */
const amounts = defineMessages({
  callsOf: { id: 'settings.usage.callsOf', defaultMessage: '{used} of {allowance}' },
  callsUnlimited: { id: 'settings.usage.callsUnlimited', defaultMessage: '{used} no monthly allowance' },
  uploadsIncluded: { id: 'settings.usage.uploadsIncluded', defaultMessage: '{used} of {allowance} included, then {price} per GB' },
  uploadsNotCharged: { id: 'settings.usage.uploadsNotCharged', defaultMessage: '{used} not charged' },
  vaultOf: { id: 'settings.usage.vaultOf', defaultMessage: '{used} of {allowance}' },
  vaultNotCreated: { id: 'settings.usage.vaultNotCreated', defaultMessage: '{used} of {allowance} (you have not created your vault yet)' },
});

function UsageCard({ me, vault }: { me: Me; vault: VaultUsage }) {
  const intl = useIntl();
  const headingId = useId();
  const { usage, plan } = me;
  const calls = plan.limits.monthlyCalls;
  const includedBytes = plan.limits.includedUploadBytesPerMonth;
  return (
    <Card aria-labelledby={headingId} className="md:col-span-2">
      <CardHeading id={headingId}>
        {intl.formatMessage({ id: 'settings.usage.heading', defaultMessage: 'Usage in {month}' }, { month: formatMonth(usage.month) })}
      </CardHeading>
      <p className="-mt-2 mb-4 text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage({
          id: 'settings.usage.lead',
          defaultMessage: 'API calls are those made with API keys and connected apps; using this dashboard never counts.',
        })}
      </p>
      <div className="grid gap-6 sm:grid-cols-2">
        <UsageMeter
          label={intl.formatMessage({ id: 'settings.usage.apiCalls', defaultMessage: 'API calls' })}
          used={usage.apiCalls}
          allowance={calls}
          usedText={formatInteger(usage.apiCalls)}
          amount={calls === null ? { message: amounts.callsUnlimited } : { message: amounts.callsOf, values: { allowance: formatInteger(calls) } }}
        />
        <UsageMeter
          label={intl.formatMessage({ id: 'settings.usage.apiUploads', defaultMessage: 'API uploads' })}
          used={usage.apiUploadBytes}
          allowance={includedBytes}
          usedText={formatBytes(usage.apiUploadBytes)}
          amount={
            includedBytes === null
              ? { message: amounts.uploadsNotCharged }
              : { message: amounts.uploadsIncluded, values: { allowance: formatBytes(includedBytes), price: formatEuros(plan.limits.uploadPriceEurPerGb) } }
          }
        />
        <UsageMeter
          label={intl.formatMessage({ id: 'settings.usage.vault', defaultMessage: 'Your vault' })}
          used={vault.usedBytes}
          allowance={vault.limitBytes}
          usedText={formatBytes(vault.usedBytes)}
          amount={{ message: vault.exists ? amounts.vaultOf : amounts.vaultNotCreated, values: { allowance: formatBytes(vault.limitBytes) } }}
        />
      </div>
    </Card>
  );
}

function UsageMeter(props: {
  label: string;
  used: number;
  allowance: number | null;
  usedText: string;
  /** The sentence around the amount used (its `{used}`), with its other values. */
  amount: { message: MessageDescriptor; values?: Record<string, string> };
}) {
  const intl = useIntl();
  const labelId = useId();
  const share = props.allowance ? Math.min(1, props.used / props.allowance) : 0;
  return (
    <div>
      <p id={labelId} className="text-sm text-zinc-600 dark:text-zinc-400">
        {props.label}
      </p>
      <p className="mt-1 text-sm">
        {intl.formatMessage(props.amount.message, {
          ...props.amount.values,
          used: (
            <span key="used" className="text-xl font-semibold">
              {props.usedText}
            </span>
          ),
        })}
      </p>
      {props.allowance ? (
        <div
          role="meter"
          aria-labelledby={labelId}
          aria-valuemin={0}
          aria-valuemax={props.allowance}
          aria-valuenow={Math.min(props.used, props.allowance)}
          aria-valuetext={intl.formatMessage(props.amount.message, { ...props.amount.values, used: props.usedText })}
          className="mt-2 h-2 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
        >
          <div
            className={`h-full rounded-full ${share >= 0.9 ? 'bg-amber-500' : 'bg-indigo-600 dark:bg-indigo-500'}`}
            style={{ width: `${share * 100}%` }}
          />
        </div>
      ) : null}
    </div>
  );
}
