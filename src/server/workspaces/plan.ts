import type { z } from 'zod';
import type { PlanNameSchema } from '../../contract/me.js';
import type { Config } from '../config.js';

export type Plan = z.infer<typeof PlanNameSchema>;

/** Whether the server bills its workspaces at all (`BILLING`). */
export type Billing = Pick<Config, 'BILLING'>;

export const billingOff = (billing: Billing) => billing.BILLING === 'off';

/**
 * The plan in force at `now`: a paid plan whose end date has passed is free again, from the next
 * request on. On a server that bills nobody (`BILLING=off`) every workspace has the paid plan,
 * whatever its row says, so every gate that reads the plan opens without knowing about billing.
 */
export function effectivePlan(ws: { plan: Plan; planUntil: Date | null }, now: Date, billing: Billing): Plan {
  if (billingOff(billing)) return 'paid';
  if (ws.plan !== 'paid') return 'free';
  return ws.planUntil === null || ws.planUntil.getTime() > now.getTime() ? 'paid' : 'free';
}

export interface PlanLimits {
  /** Calls a month through /api/v1; null means no monthly allowance applies. */
  monthlyCalls: number | null;
  webhookEndpoints: number;
  /** Size ceiling of one transfer. */
  transferMaxBytes: number;
  /** The free plan's expiry is fixed; a paid plan chooses within [minimum, maximum]. */
  transferExpiry: { defaultDays: number; choosable: boolean; minimumHours: number; minimumSeconds: number; maximumDays: number };
}

export function planLimits(plan: Plan, config: Config): PlanLimits {
  return plan === 'paid'
    ? {
        monthlyCalls: config.PAID_MONTHLY_CALLS > 0 ? config.PAID_MONTHLY_CALLS : null,
        webhookEndpoints: 10,
        transferMaxBytes: config.PAID_TRANSFER_MAX_BYTES,
        transferExpiry: {
          defaultDays: config.PAID_TRANSFER_DEFAULT_EXPIRY_DAYS,
          choosable: true,
          minimumHours: Math.floor(config.PAID_TRANSFER_MIN_EXPIRY_SECONDS / 3600),
          minimumSeconds: config.PAID_TRANSFER_MIN_EXPIRY_SECONDS,
          maximumDays: config.PAID_TRANSFER_MAX_EXPIRY_DAYS,
        },
      }
    : {
        monthlyCalls: config.FREE_MONTHLY_CALLS,
        webhookEndpoints: 1,
        transferMaxBytes: config.FREE_TRANSFER_MAX_BYTES,
        transferExpiry: { defaultDays: config.FREE_TRANSFER_EXPIRY_DAYS, choosable: false, minimumHours: 0, minimumSeconds: 0, maximumDays: config.FREE_TRANSFER_EXPIRY_DAYS },
      };
}

/** UTC calendar month as YYYY-MM, the key of monthly usage. */
export const monthKey = (d: Date) => d.toISOString().slice(0, 7);

export function startOfNextMonth(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}
