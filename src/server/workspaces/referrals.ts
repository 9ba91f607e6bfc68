import { and, count, eq, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Referral } from '../../contract/me.js';
import type { Config } from '../config.js';
import { workspaces } from '../db/schema/index.js';
import type { Services } from '../services.js';
import { billingOff } from './plan.js';

/**
 * A referral code as stored (upper-case letters and digits), from what a sign-up sent, or null
 * when it cannot be one. Links get retyped and mangled in transit, so a code that is not one is
 * ignored rather than refused: it must never cost anyone their sign-up.
 */
export function referralCodeFrom(raw: string | undefined): string | null {
  const code = raw?.trim().toUpperCase() ?? '';
  return /^[A-Z0-9]{1,64}$/.test(code) ? code : null;
}

export function referralLink(config: Pick<Config, 'PUBLIC_URL'>, code: string): string {
  return `${config.PUBLIC_URL}/signup?ref=${encodeURIComponent(code)}`;
}

/** The rule in force; a server that bills nobody (`BILLING=off`) has no months to give, so the link only invites. */
export function referralRule(config: Pick<Config, 'REFERRAL_EARNS_ON' | 'REFERRAL_FREE_MONTHS' | 'REFERRAL_MAX_FREE_MONTHS' | 'BILLING'>): Referral['rule'] {
  if (billingOff(config)) return { earnsOn: config.REFERRAL_EARNS_ON, monthsPerReferral: 0, maxFreeMonths: 0 };
  return { earnsOn: config.REFERRAL_EARNS_ON, monthsPerReferral: config.REFERRAL_FREE_MONTHS, maxFreeMonths: config.REFERRAL_MAX_FREE_MONTHS };
}

const referred = alias(workspaces, 'referred');

/**
 * What a workspace's link has brought it under the operator's rule (config REFERRAL_*), counted
 * in one query so that the sign-ups and the qualifying ones always agree. Null when the
 * workspace does not exist.
 */
export async function referralOf(services: Pick<Services, 'db' | 'config'>, workspaceId: string): Promise<Referral | null> {
  const { db, config } = services;
  const [row] = await db
    .select({
      code: workspaces.referralCode,
      signups: count(referred.id),
      everPaid: sql<number>`count(${referred.id}) filter (where ${referred.everPaid})`.mapWith(Number),
    })
    .from(workspaces)
    // Sign-up cannot record a workspace as its own referrer; this keeps such a row from ever earning anything if one appears.
    .leftJoin(referred, and(eq(referred.referredBy, workspaces.id), ne(referred.id, workspaces.id)))
    .where(eq(workspaces.id, workspaceId))
    .groupBy(workspaces.id);
  if (!row) return null;
  const rule = referralRule(config);
  const qualifyingSignups = rule.earnsOn === 'signup' ? row.signups : row.everPaid;
  return {
    code: row.code,
    link: referralLink(config, row.code),
    signups: row.signups,
    qualifyingSignups,
    freeMonthsEarned: Math.min(rule.maxFreeMonths, qualifyingSignups * rule.monthsPerReferral),
    rule,
  };
}
