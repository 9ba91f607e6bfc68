import { operatorActor } from '../activity/activity.js';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { EmailSchema, PasswordSchema } from '../../contract/dashboard.js';
import { paidOnlyScopes, scopes as allScopes, type Scope } from '../../contract/scopes.js';
import { createApiKey } from '../auth/api-keys.js';
import { verifyPassword } from '../auth/passwords.js';
import { addIdentityProvider, callbackUrl, listIdentityProviders, removeIdentityProvider, type NewIdentityProvider } from '../auth/single-sign-on.js';
import type { Config } from '../config.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { Database } from '../db/connection.js';
import { workspaces } from '../db/schema/index.js';
import { ApiError } from '../core/errors.js';
import { createWorkspaceWithOwner, EmailTakenError, findUserByEmail, setPlan } from '../workspaces/accounts.js';
import { normalizeCustomDomain, setCustomDomain } from '../workspaces/custom-domain.js';
import { effectivePlan, type Billing, type Plan } from '../workspaces/plan.js';

/**
 * The operator commands behind `npm run admin`, as plain functions of a database and parsed options,
 * so that tests call them directly. Each returns the object `--json` prints.
 */

/** The server's own setting is read by the CLI; tests of billing on need not repeat it. */
const BILLING_ON: Billing = { BILLING: 'on' };

export type AdminErrorCode =
  | 'usage'
  | 'invalid_request'
  | 'not_found'
  | 'conflict'
  | 'wrong_password'
  | 'upgrade_required'
  | 'config'
  | 'database_unavailable'
  | 'internal_error';

/** An expected failure: the CLI prints its message (never a stack) and exits with `exitCode`. */
export class AdminError extends Error {
  constructor(
    readonly code: AdminErrorCode,
    message: string,
    /** 2 for usage errors (the command line itself is wrong), 1 for everything else. */
    readonly exitCode: 1 | 2 = code === 'usage' ? 2 : 1,
  ) {
    super(message);
  }
}

const invalid = (message: string) => new AdminError('invalid_request', message);

export const plans = ['free', 'paid'] as const satisfies readonly Plan[];

export function parsePlan(value: string, option = '--plan'): Plan {
  if ((plans as readonly string[]).includes(value)) return value as Plan;
  throw invalid(`${option} must be free or paid, not "${value}"`);
}

/** Scopes a workspace on `plan` may put on a key. */
export function scopesForPlan(plan: Plan): Scope[] {
  return allScopes.filter((s) => plan === 'paid' || !paidOnlyScopes.includes(s));
}

/** "a,b" → scopes, each checked against the eight the API knows. */
export function parseScopes(value: string): Scope[] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (items.length === 0) throw invalid('--scopes needs at least one scope');
  const unknown = items.filter((s) => !(allScopes as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw invalid(`Unknown scope${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; the scopes are ${allScopes.join(', ')}`);
  }
  return [...new Set(items)] as Scope[];
}

const MICRO = 1_000_000;
/** The most one `credit add` may add, so that balances stay far inside exact integer range. */
export const MAX_CREDIT_ADD_EUR = 1_000_000_000;

/** A positive decimal amount of euros with up to six decimals, converted exactly (no floating point) to micro-euros. */
export function parseEur(value: string): number {
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(value.trim());
  if (!m) throw invalid(`--eur must be a positive decimal number with at most 6 decimals (like 12.50), not "${value}"`);
  const whole = Number(m[1]);
  if (whole > MAX_CREDIT_ADD_EUR) throw invalid(`--eur may add at most ${MAX_CREDIT_ADD_EUR} EUR at a time`);
  const micro = whole * MICRO + Number((m[2] ?? '').padEnd(6, '0'));
  if (micro <= 0) throw invalid('--eur must be greater than zero');
  if (micro > MAX_CREDIT_ADD_EUR * MICRO) throw invalid(`--eur may add at most ${MAX_CREDIT_ADD_EUR} EUR at a time`);
  return micro;
}

/** Micro-euros as an exact decimal string with at least two decimals: 300000 → "0.30", 1234567 → "1.234567". */
export function formatEur(micro: number): string {
  const sign = micro < 0 ? '-' : '';
  const abs = Math.abs(micro);
  const whole = Math.floor(abs / MICRO);
  const frac = String(abs % MICRO).padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${sign}${whole}.${frac}`;
}

/** A hostname for `domain set`, lower-cased (and in its xn-- form when internationalised). */
export function parseDomain(value: string): string {
  const r = normalizeCustomDomain(value);
  if ('problem' in r) throw invalid(`--domain: ${r.problem.english}`);
  return r.domain;
}

const IsoDate = z.iso.date();
const IsoDateTime = z.iso.datetime({ offset: true });

/** ISO 8601: a date (taken as 00:00 UTC of that day) or a date-time with `Z` or an offset. */
export function parseUntil(value: string): Date {
  const v = value.trim();
  if (IsoDate.safeParse(v).success) return new Date(`${v}T00:00:00.000Z`);
  if (IsoDateTime.safeParse(v).success) return new Date(v);
  throw invalid(
    `--until must be an ISO 8601 date (2027-01-31) or date-time with Z or an offset (2027-01-31T18:00:00Z), not "${value}"`,
  );
}

function check<T>(schema: z.ZodType<T>, value: unknown, option: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw invalid(`${option}: ${r.error.issues[0]?.message ?? 'invalid value'}`);
  return r.data;
}

const WorkspaceNameSchema = z.string().trim().min(1, { error: 'Name the workspace' }).max(100, { error: 'Use at most 100 characters' });
const KeyNameSchema = z.string().trim().min(1, { error: 'Name the key' }).max(100, { error: 'Use at most 100 characters' });

async function loadWorkspace(db: Database, workspaceId: string) {
  const [ws] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  if (!ws) throw new AdminError('not_found', `No workspace with id ${workspaceId}`);
  return ws;
}

/** createApiKey refuses paid-only scopes on a free plan with an ApiError; the CLI shows its message. */
async function newKey(db: Database, now: Date, workspaceId: string, plan: Plan, name: string, keyScopes: readonly Scope[]) {
  try {
    return await createApiKey(db, now, workspaceId, plan, name, keyScopes, operatorActor(null));
  } catch (err) {
    if (err instanceof ApiError) throw new AdminError(err.code === 'upgrade_required' ? 'upgrade_required' : 'invalid_request', err.message);
    throw err;
  }
}

const isUniqueViolation = (err: unknown) => (err as { code?: unknown } | null)?.code === '23505';

// ---------------------------------------------------------------------------------------------

export interface BootstrapOptions {
  email: string;
  password: string;
  /** Used only when the workspace is created; default "My workspace". */
  workspaceName?: string;
  /** When given, the plan is set (with no end date), also on a reused workspace. */
  plan?: Plan;
}

export interface BootstrapResult {
  workspaceId: string;
  apiKey: string;
  userId: string;
  plan: Plan;
  keyId: string;
  scopes: Scope[];
  /** False when a user with this email already existed and its workspace was reused. */
  created: boolean;
}

/**
 * Creates the workspace and its owner, or reuses them when the email is taken (the password must then match),
 * and adds a key named "bootstrap" with every scope the plan in force allows.
 */
export async function bootstrap(db: Database, options: BootstrapOptions, clock: Clock = systemClock, billing: Billing = BILLING_ON): Promise<BootstrapResult> {
  const email = check(EmailSchema, options.email, '--email');
  const password = check(PasswordSchema, options.password, '--password');
  const workspaceName = check(WorkspaceNameSchema, options.workspaceName ?? 'My workspace', '--workspace');
  const now = clock.now();
  const account = await createOrReuseAccount(db, now, billing, { email, password, workspaceName, plan: options.plan });
  const keyScopes = scopesForPlan(account.plan);
  const { row, secret } = await newKey(db, now, account.workspaceId, account.plan, 'bootstrap', keyScopes);
  return {
    workspaceId: account.workspaceId,
    apiKey: secret,
    userId: account.userId,
    plan: account.plan,
    keyId: row.id,
    scopes: keyScopes,
    created: account.created,
  };
}

async function createOrReuseAccount(
  db: Database,
  now: Date,
  billing: Billing,
  input: { email: string; password: string; workspaceName: string; plan: Plan | undefined },
): Promise<{ workspaceId: string; userId: string; plan: Plan; created: boolean }> {
  let existing = await findUserByEmail(db, input.email);
  if (!existing) {
    try {
      const { workspace, user } = await createWorkspaceWithOwner(db, now, { ...input, plan: input.plan, firstAccountPlan: input.plan });
      return { workspaceId: workspace.id, userId: user.id, plan: effectivePlan(workspace, now, billing), created: true };
    } catch (err) {
      // Someone else created this user between our look-up and our insert: reuse it like any other.
      if (!(err instanceof EmailTakenError) && !isUniqueViolation(err)) throw err;
      existing = await findUserByEmail(db, input.email);
      if (!existing) throw err;
    }
  }
  if (!(await verifyPassword(input.password, existing.user.passwordHash))) {
    throw new AdminError('wrong_password', `A user with email ${input.email} already exists and the password does not match`);
  }
  let ws = existing.ws;
  if (input.plan) {
    const updated = await setPlan(db, ws.id, input.plan, null, { actor: operatorActor(null), at: now });
    if (!updated) throw new AdminError('not_found', `No workspace with id ${ws.id}`);
    ws = updated;
  }
  return { workspaceId: ws.id, userId: existing.user.id, plan: effectivePlan(ws, now, billing), created: false };
}

// ---------------------------------------------------------------------------------------------

export interface PlanSetOptions {
  workspaceId: string;
  plan: Plan;
  /** Only for paid: the instant the plan lapses; null means it runs until changed. */
  until?: Date | null;
}

export interface PlanSetResult {
  workspaceId: string;
  plan: Plan;
  until: string | null;
}

export async function planSet(db: Database, options: PlanSetOptions, clock: Clock = systemClock): Promise<PlanSetResult> {
  const until = options.until ?? null;
  if (until && options.plan !== 'paid') throw new AdminError('usage', '--until applies only to --plan paid');
  if (until && until.getTime() <= clock.now().getTime()) {
    throw invalid(`--until must be in the future (it is ${until.toISOString()})`);
  }
  const ws = await setPlan(db, options.workspaceId, options.plan, until, { actor: operatorActor(null), at: clock.now() });
  if (!ws) throw new AdminError('not_found', `No workspace with id ${options.workspaceId}`);
  return { workspaceId: ws.id, plan: ws.plan, until: ws.planUntil?.toISOString() ?? null };
}

// ---------------------------------------------------------------------------------------------

export interface CreditAddOptions {
  workspaceId: string;
  /** The amount in millionths of a euro (parseEur turns "12.50" into 12_500_000). */
  microEur: number;
}

export interface CreditAddResult {
  workspaceId: string;
  addedEur: number;
  creditEur: number;
  creditMicroEur: number;
}

/** Adds credit in one UPDATE (`credit_micro_eur = credit_micro_eur + n`), so concurrent charges and additions never lose each other. */
export async function creditAdd(db: Database, options: CreditAddOptions): Promise<CreditAddResult> {
  const n = options.microEur;
  if (!Number.isSafeInteger(n) || n <= 0 || n > MAX_CREDIT_ADD_EUR * MICRO) {
    throw invalid(`The amount must be a positive number of micro-euros up to ${MAX_CREDIT_ADD_EUR * MICRO}`);
  }
  const [row] = await db
    .update(workspaces)
    .set({ creditMicroEur: sql`${workspaces.creditMicroEur} + ${n}` })
    .where(eq(workspaces.id, options.workspaceId))
    .returning({ id: workspaces.id, credit: workspaces.creditMicroEur });
  if (!row) throw new AdminError('not_found', `No workspace with id ${options.workspaceId}`);
  return { workspaceId: row.id, addedEur: n / MICRO, creditEur: row.credit / MICRO, creditMicroEur: row.credit };
}

// ---------------------------------------------------------------------------------------------

export interface KeyCreateOptions {
  workspaceId: string;
  name: string;
  scopes: readonly Scope[];
}

export interface KeyCreateResult {
  id: string;
  apiKey: string;
  scopes: Scope[];
  workspaceId: string;
  name: string;
}

export async function keyCreate(db: Database, options: KeyCreateOptions, clock: Clock = systemClock, billing: Billing = BILLING_ON): Promise<KeyCreateResult> {
  const name = check(KeyNameSchema, options.name, '--name');
  if (options.scopes.length === 0) throw invalid('--scopes needs at least one scope');
  const keyScopes = parseScopes(options.scopes.join(','));
  const now = clock.now();
  const ws = await loadWorkspace(db, options.workspaceId);
  const { row, secret } = await newKey(db, now, ws.id, effectivePlan(ws, now, billing), name, keyScopes);
  return { id: row.id, apiKey: secret, scopes: row.scopes as Scope[], workspaceId: ws.id, name: row.name };
}

// ---------------------------------------------------------------------------------------------

export interface DomainSetOptions {
  workspaceId: string;
  /** As parseDomain returns it; checked again here for callers that skip it. */
  domain: string;
  /** The server's own address: its host cannot also be a workspace's domain, or the whole app would vanish behind it. */
  publicUrl?: string;
}

export interface DomainResult {
  workspaceId: string;
  customDomain: string | null;
  /** The domain before this command; null when there was none. */
  previousDomain: string | null;
}

export async function domainSet(db: Database, options: DomainSetOptions): Promise<DomainResult> {
  const domain = parseDomain(options.domain);
  if (options.publicUrl && new URL(options.publicUrl).hostname.toLowerCase() === domain) {
    throw invalid(`--domain: ${domain} is this server's own host (PUBLIC_URL); a workspace needs a domain of its own`);
  }
  const r = await setCustomDomain(db, options.workspaceId, domain);
  if (r.status === 'not_found') throw new AdminError('not_found', `No workspace with id ${options.workspaceId}`);
  if (r.status === 'taken') throw new AdminError('conflict', `${domain} is already the domain of ${r.holder ? `workspace ${r.holder}` : 'another workspace'}`);
  return { workspaceId: r.workspaceId, customDomain: r.customDomain, previousDomain: r.previous };
}

export async function domainClear(db: Database, options: { workspaceId: string }): Promise<DomainResult> {
  const r = await setCustomDomain(db, options.workspaceId, null);
  if (r.status !== 'set') throw new AdminError('not_found', `No workspace with id ${options.workspaceId}`);
  return { workspaceId: r.workspaceId, customDomain: null, previousDomain: r.previous };
}

// ---------------------------------------------------------------------------------------------
// Single sign-on

export interface SsoProviderResult {
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  createdAt: string;
}

/** What the CLI needs to set up a provider: the sealing key, and the SSRF-safe client's development setting. */
export interface SsoAdminContext {
  config: Config;
  sealingKey: Buffer;
  clock?: Clock;
}

export async function ssoAdd(db: Database, options: NewIdentityProvider, context: SsoAdminContext): Promise<SsoProviderResult & { redirectUri: string }> {
  try {
    const provider = await addIdentityProvider({ db, config: context.config, sealingKey: context.sealingKey, clock: context.clock ?? systemClock }, options);
    return { ...provider, redirectUri: callbackUrl(context.config) };
  } catch (err) {
    if (err instanceof ApiError && err.code === 'invalid_request') throw invalid(err.message);
    throw err;
  }
}

export async function ssoList(db: Database, config: Pick<Config, 'PUBLIC_URL'>): Promise<{ providers: SsoProviderResult[]; redirectUri: string }> {
  return { providers: await listIdentityProviders(db), redirectUri: callbackUrl(config) };
}

export async function ssoRemove(db: Database, options: { id: string }): Promise<{ id: string; removed: true }> {
  if (!(await removeIdentityProvider(db, options.id))) throw new AdminError('not_found', `No identity provider ${options.id} (see sso list)`);
  return { id: options.id, removed: true };
}
