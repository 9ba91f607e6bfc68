import type { IntlShape } from 'react-intl';
import type { PlanLimits } from './api/get-plan-limits';

export interface ExpiryChoice {
  days: number;
  label: string;
}

const CANDIDATE_DAYS = [1, 3, 7, 14, 30, 90, 365];

/** "1 day", "7 days", "1 year": how long a link lasts, in the page's language. */
export function daysLabel(days: number, intl: IntlShape): string {
  if (days === 365) return intl.formatMessage({ id: 'send.expiry.years', defaultMessage: '{count, plural, one {# year} other {# years}}' }, { count: 1 });
  return intl.formatMessage({ id: 'send.expiry.days', defaultMessage: '{count, plural, one {# day} other {# days}}' }, { count: days });
}

/** The choices a paid plan offers: the usual periods that fall within [minimumHours, maximumDays]. */
export function expiryChoices(expiry: PlanLimits['transferExpiry'], intl: IntlShape): ExpiryChoice[] {
  const days = CANDIDATE_DAYS.filter((d) => d * 24 >= expiry.minimumHours && d <= expiry.maximumDays);
  if (!days.includes(expiry.defaultDays) && expiry.defaultDays * 24 >= expiry.minimumHours && expiry.defaultDays <= expiry.maximumDays) {
    days.push(expiry.defaultDays);
    days.sort((a, b) => a - b);
  }
  return days.map((d) => ({ days: d, label: daysLabel(d, intl) }));
}

export function expiresAtAfter(days: number, now: number = Date.now()): string {
  return new Date(now + days * 24 * 3600_000).toISOString();
}
