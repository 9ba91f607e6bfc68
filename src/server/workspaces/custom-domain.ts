import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/connection.js';
import { workspaces } from '../db/schema/index.js';
import { said, type Sentence } from '../core/sentences.js';

/**
 * A workspace's own domain: the hostname on which its collections with `customLink` are served at `/<slug>`.
 * Stored lower-case in ASCII (punycode), without port or trailing dot, exactly as requests' Host is compared.
 */

const label = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The stored form of `value`, or why it cannot be a workspace's domain (a sentence for the operator). */
export function normalizeCustomDomain(value: string): { domain: string } | { problem: Sentence } {
  const v = value.trim();
  if (v === '') return { problem: said({ id: 'api.workspaces.domainEmpty', defaultMessage: 'Give a hostname such as files.example.com' }) };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) return { problem: said({ id: 'api.workspaces.domainWithScheme', defaultMessage: 'Give the hostname alone, without the scheme: not "{value}"' }, { value }) };
  if (/[/?#]/.test(v)) return { problem: said({ id: 'api.workspaces.domainWithPath', defaultMessage: 'Give the hostname alone, without a path: not "{value}"' }, { value }) };
  if (isIP(v) !== 0 || isIP(v.replace(/^\[|\]$/g, '')) !== 0) return { problem: said({ id: 'api.workspaces.domainIsIp', defaultMessage: 'An IP address cannot be a workspace\'s domain: "{value}"' }, { value }) };
  if (v.includes(':')) return { problem: said({ id: 'api.workspaces.domainWithPort', defaultMessage: 'Give the hostname without a port: not "{value}"' }, { value }) };
  // Lower-cases, and turns an internationalised name into the xn-- form browsers send in Host.
  const ascii = domainToASCII(v).replace(/\.$/, '');
  // domainToASCII also turns IPv4 spellings such as 0x7f.1 into 127.0.0.1, and fails on a name whose last label is a number.
  if (isIP(ascii) !== 0) return { problem: said({ id: 'api.workspaces.domainIsIp', defaultMessage: 'An IP address cannot be a workspace\'s domain: "{value}"' }, { value }) };
  if (ascii === '' || /^\d+$/.test(ascii.split('.').at(-1) ?? '')) return { problem: said({ id: 'api.workspaces.notAHostname', defaultMessage: '"{value}" is not a hostname' }, { value }) };
  if (ascii.length > 253) return { problem: said({ id: 'api.workspaces.hostnameTooLong', defaultMessage: 'A hostname has at most 253 characters' }) };
  const labels = ascii.split('.');
  if (labels.length < 2) return { problem: said({ id: 'api.workspaces.hostnameWithoutDot', defaultMessage: 'Give a full hostname with a dot, such as files.example.com: not "{value}"' }, { value }) };
  if (!labels.every((l) => label.test(l))) {
    return { problem: said({ id: 'api.workspaces.hostnameBadLabel', defaultMessage: '"{value}" is not a hostname: each part between dots has 1 to 63 letters, digits or hyphens, and no hyphen at either end' }, { value }) };
  }
  return { domain: ascii };
}

export type SetCustomDomainResult =
  | { status: 'set'; workspaceId: string; customDomain: string | null; previous: string | null }
  | { status: 'not_found' }
  | { status: 'taken'; holder: string | null };

/**
 * Sets (or, with null, clears) a workspace's domain. The unique index on custom_domain settles a race between two
 * workspaces claiming the same name; the loser learns who holds it.
 */
export async function setCustomDomain(db: Database, workspaceId: string, domain: string | null): Promise<SetCustomDomainResult> {
  try {
    return await db.transaction(async (tx) => {
      const [before] = await tx.select({ customDomain: workspaces.customDomain }).from(workspaces).where(eq(workspaces.id, workspaceId)).for('update');
      if (!before) return { status: 'not_found' } as const;
      await tx.update(workspaces).set({ customDomain: domain }).where(eq(workspaces.id, workspaceId));
      return { status: 'set', workspaceId, customDomain: domain, previous: before.customDomain } as const;
    });
  } catch (err) {
    if (!isDomainTaken(err) || domain === null) throw err;
    const [holder] = await db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.customDomain, domain));
    return { status: 'taken', holder: holder?.id ?? null };
  }
}

/** True for the unique index on custom_domain; drizzle wraps the driver's error in `cause`. */
function isDomainTaken(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const pgError = e as Error & { code?: string; constraint?: string };
    if (pgError.code === '23505' && pgError.constraint === 'workspaces_custom_domain_key') return true;
  }
  return false;
}
