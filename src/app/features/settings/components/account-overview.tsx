import { useSuspenseQuery } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import type { Me } from '../../../../contract/me';
import { PlanBadge } from '../../../components/badge';
import { Card } from '../../../components/card';
import { CopyField } from '../../../components/copy-field';
import { formatBytes, formatDate, formatEuros, formatInteger, formatMonth } from '../../../lib/format';
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
  const headingId = useId();
  return (
    <Card aria-labelledby={headingId}>
      <CardHeading id={headingId}>Workspace</CardHeading>
      <RenameWorkspace name={me.workspace.name} />
      <Facts>
        <Fact term="Created">{formatDate(me.workspace.createdAt)}</Fact>
        {me.workspace.customDomain ? <Fact term="Custom domain">{me.workspace.customDomain}</Fact> : null}
        <Fact term="Virus scanning">
          {me.scanning.enabled
            ? 'On: every file is checked for malware before anyone can download it'
            : 'Off: this server does not check files for malware (its operator has not set up a virus scanner)'}
        </Fact>
      </Facts>
      <CopyField label="Workspace id" value={me.workspace.id} className="mt-4" />
    </Card>
  );
}

function describeExpiry(expiry: Me['plan']['limits']['transferExpiry']): string {
  const days = (n: number) => `${formatInteger(n)} ${n === 1 ? 'day' : 'days'}`;
  if (!expiry.choosable) return `After ${days(expiry.defaultDays)}`;
  const hours = `${formatInteger(expiry.minimumHours)} ${expiry.minimumHours === 1 ? 'hour' : 'hours'}`;
  return `After ${days(expiry.defaultDays)} by default; you choose from ${hours} to ${days(expiry.maximumDays)}`;
}

/** The plan and its limits; on a server that bills nobody (`plan.billing` off) only the limits, with no plan, end date or credit. */
function PlanCard({ me }: { me: Me }) {
  const headingId = useId();
  const { plan } = me;
  const billed = plan.billing === 'on';
  return (
    <Card aria-labelledby={headingId}>
      <CardHeading id={headingId}>{billed ? 'Plan' : 'Limits'}</CardHeading>
      <Facts>
        {billed ? (
          <>
            <Fact term="Plan">
              <PlanBadge plan={plan.name} />
            </Fact>
            <Fact term="Ends">
              {plan.name === 'paid' ? (plan.until ? formatDate(plan.until) : 'Runs until changed') : 'No end date'}
            </Fact>
            <Fact term="Credit">{formatEuros(me.usage.creditEur)}</Fact>
          </>
        ) : null}
        <Fact term="Rate limits">
          {formatInteger(plan.limits.ratePerKeyPerMinute)} calls a minute per key, {formatInteger(plan.limits.ratePerWorkspacePerDay)} a day
          per workspace
        </Fact>
        <Fact term="Largest transfer">{formatBytes(plan.limits.transferMaxBytes)}</Fact>
        <Fact term="Transfers expire">{describeExpiry(plan.limits.transferExpiry)}</Fact>
        <Fact term="Webhook endpoints">{formatInteger(plan.limits.webhookEndpoints)}</Fact>
      </Facts>
    </Card>
  );
}

type VaultUsage = Awaited<ReturnType<typeof getVaultUsage>>;

function UsageCard({ me, vault }: { me: Me; vault: VaultUsage }) {
  const headingId = useId();
  const { usage, plan } = me;
  const calls = plan.limits.monthlyCalls;
  const includedBytes = plan.limits.includedUploadBytesPerMonth;
  return (
    <Card aria-labelledby={headingId} className="md:col-span-2">
      <CardHeading id={headingId}>Usage in {formatMonth(usage.month)}</CardHeading>
      <p className="-mt-2 mb-4 text-sm text-zinc-600 dark:text-zinc-400">API calls are those made with API keys and connected apps; using this dashboard never counts.</p>
      <div className="grid gap-6 sm:grid-cols-2">
        <UsageMeter
          label="API calls"
          used={usage.apiCalls}
          allowance={calls}
          usedText={formatInteger(usage.apiCalls)}
          allowanceText={calls === null ? 'no monthly allowance' : `of ${formatInteger(calls)}`}
        />
        <UsageMeter
          label="API uploads"
          used={usage.apiUploadBytes}
          allowance={includedBytes}
          usedText={formatBytes(usage.apiUploadBytes)}
          allowanceText={includedBytes === null ? 'not charged' : `of ${formatBytes(includedBytes)} included, then ${formatEuros(plan.limits.uploadPriceEurPerGb)} per GB`}
        />
        <UsageMeter
          label="Your vault"
          used={vault.usedBytes}
          allowance={vault.limitBytes}
          usedText={formatBytes(vault.usedBytes)}
          allowanceText={`of ${formatBytes(vault.limitBytes)}${vault.exists ? '' : ' (you have not created your vault yet)'}`}
        />
      </div>
    </Card>
  );
}

function UsageMeter(props: { label: string; used: number; allowance: number | null; usedText: string; allowanceText: string }) {
  const labelId = useId();
  const share = props.allowance ? Math.min(1, props.used / props.allowance) : 0;
  return (
    <div>
      <p id={labelId} className="text-sm text-zinc-600 dark:text-zinc-400">
        {props.label}
      </p>
      <p className="mt-1 text-sm">
        <span className="text-xl font-semibold">{props.usedText}</span> {props.allowanceText}
      </p>
      {props.allowance ? (
        <div
          role="meter"
          aria-labelledby={labelId}
          aria-valuemin={0}
          aria-valuemax={props.allowance}
          aria-valuenow={Math.min(props.used, props.allowance)}
          aria-valuetext={`${props.usedText} ${props.allowanceText}`}
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
