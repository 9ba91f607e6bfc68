import type { ReactNode } from 'react';
import { useIntl } from '../lib/intl';

export type BadgeTone = 'neutral' | 'accent' | 'success' | 'warning';

const tones: Record<BadgeTone, string> = {
  neutral: 'bg-zinc-100 text-zinc-700 ring-zinc-300 dark:bg-zinc-800 dark:text-zinc-300 dark:ring-zinc-700',
  accent: 'bg-indigo-50 text-indigo-700 ring-indigo-200 dark:bg-indigo-950 dark:text-indigo-300 dark:ring-indigo-800',
  success: 'bg-emerald-50 text-emerald-700 ring-emerald-200 dark:bg-emerald-950 dark:text-emerald-300 dark:ring-emerald-800',
  warning: 'bg-amber-50 text-amber-800 ring-amber-200 dark:bg-amber-950 dark:text-amber-300 dark:ring-amber-800',
};

export function Badge({ tone = 'neutral', children }: { tone?: BadgeTone; children: ReactNode }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]}`}>
      {children}
    </span>
  );
}

export function PlanBadge({ plan }: { plan: 'free' | 'paid' }) {
  const intl = useIntl();
  return (
    <Badge tone={plan === 'paid' ? 'success' : 'neutral'}>
      {plan === 'paid'
        ? intl.formatMessage({ id: 'common.planBadge.paid', defaultMessage: 'Paid' })
        : intl.formatMessage({ id: 'common.planBadge.free', defaultMessage: 'Free' })}
    </Badge>
  );
}
