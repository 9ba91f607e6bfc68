import type { ApiKey, Session } from '../../contract/dashboard';
import type { Contact } from '../../contract/contacts';
import type { Me, Referral } from '../../contract/me';
import { json, type StubHandler } from './fetch-stub';

export function session(plan: 'free' | 'paid' = 'free', isOperator = false, billing: Session['billing'] = 'on'): Session {
  return {
    billing,
    user: { id: 'usr_1', email: 'ada@example.com', name: 'Ada Lovelace', isOperator, twoStep: false, singleSignOn: false, language: null },
    workspace: { id: 'ws_1', name: 'Analytical Engines', plan, planUntil: plan === 'paid' ? '2027-01-31T00:00:00.000Z' : null, role: 'owner', requireTwoStep: false, requireSingleSignOn: false },
  };
}

export function apiKey(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: 'key_1',
    name: 'CI uploads',
    hint: 'sk_live_…x9Qa',
    scopes: ['transfers:read', 'transfers:write'],
    createdAt: '2026-10-01T12:00:00.000Z',
    lastUsedAt: null,
    createdBy: { name: 'Ada Lovelace', email: 'ada@example.com' },
    ...overrides,
  };
}

export function account(overrides: Partial<Me> = {}): Me {
  return {
    key: { id: 'tok_1', name: null, via: 'session', scopes: [], canEmail: true },
    workspace: { id: 'ws_1', name: 'Analytical Engines', customDomain: null, createdAt: '2026-09-01T00:00:00.000Z' },
    member: { id: 'usr_1', name: 'Ada Lovelace', email: 'ada@example.com' },
    role: 'owner',
    plan: {
      name: 'free',
      until: null,
      billing: 'on',
      limits: {
        monthlyCalls: 50_000,
        ratePerKeyPerMinute: 120,
        ratePerWorkspacePerDay: 100_000,
        webhookEndpoints: 1,
        includedUploadBytesPerMonth: 10_000_000_000,
        uploadPriceEurPerGb: 0.05,
        transferMaxBytes: 2_000_000_000,
        transferExpiry: { defaultDays: 7, choosable: false, minimumHours: 0, minimumSeconds: 0, maximumDays: 7 },
      },
    },
    usage: { month: '2026-11', apiCalls: 1234, apiUploadBytes: 2_500_000_000, creditEur: 12.5 },
    scanning: { enabled: true },
    ...overrides,
  };
}

export const referral: Referral = {
  code: 'K7QX2M9P',
  link: 'http://localhost:8080/signup?ref=K7QX2M9P',
  signups: 3,
  qualifyingSignups: 2,
  freeMonthsEarned: 2,
  rule: { earnsOn: 'paid', monthsPerReferral: 1, maxFreeMonths: 12 },
};

/** The endpoints every signed-in page touches. */
export function signedIn(plan: 'free' | 'paid' = 'free'): Record<string, StubHandler> {
  return {
    'GET /api/dashboard/setup': json({ needsFirstWorkspace: false, signup: 'open', invite: null }),
    'GET /api/dashboard/session': json(session(plan)),
    'POST /api/dashboard/token': json({ accessToken: 'tok_dashboard', expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }),
    // Signed-in visitors land on the transfers list.
    'GET /api/v1/transfers': json({ transfers: [], nextCursor: null }),
    'GET /api/dashboard/notifications': json({ downloads: true, beforeExpiry: true }),
    // Settings shows the vault's quota, made or not.
    'GET /api/dashboard/vault/usage': json({ usage: { exists: false, usedBytes: 0, limitBytes: 2_000_000_000 } }),
    'GET /api/dashboard/connected-apps': json({ apps: [] }),
    // Settings → Security.
    'GET /api/dashboard/security/passkeys': json({ passkeys: [] }),
    'GET /api/dashboard/security/two-step': json({ enabled: false, enabledAt: null, recoveryCodesLeft: 0 }),
    'GET /api/dashboard/security/sessions': json({
      sessions: [{ id: 'ses_1', current: true, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36', address: '127.0.0.1', workspaceName: 'Analytical Engines', createdAt: '2026-11-01T00:00:00.000Z', lastSeenAt: '2026-11-01T00:00:00.000Z' }],
    }),
    // The header's switcher: one workspace, so no switcher.
    'GET /api/dashboard/workspaces': json({ workspaces: [{ id: 'ws_1', name: 'Analytical Engines', role: 'owner' }] }),
  };
}

/** A contact of the address book: only the address is given, `fields` fill in the rest; the id is `ct_` and the address's local part. */
export function contactFixture(email: string, fields: Partial<Contact> = {}): Contact {
  return {
    id: `ct_${email.split('@')[0]}`,
    email,
    firstName: '',
    lastName: '',
    language: '',
    company: '',
    phone: '',
    type: 'person',
    createdBy: null,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...fields,
  };
}
