import { and, eq } from 'drizzle-orm';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import {
  CreateSessionRequestSchema,
  UNLOCK_HEADER,
  UnlockRequestSchema,
  type DownloadSession,
  type PublicTransfer,
  type UnlockResponse,
} from '../../contract/public.js';
import { verifyPassword } from '../auth/passwords.js';
import { newId, sha256 } from '../core/secrets.js';
import { downloadSessions, transferRecipients, transfers, workspaces } from '../db/schema/index.js';
import { zipDownload } from '../downloads/content.js';
import { assertAvailable, linkUnavailable, type TransferRow } from '../transfers/availability.js';
import { transferZipContent } from '../transfers/download-links.js';
import { downloadableFiles } from '../transfers/files.js';
import { thumbnailUrls } from '../thumbnails/thumbnails.js';
import { linksFor } from '../downloads/links.js';
import type { AppEnv } from '../http/env.js';
import { ApiError, notFound } from '../core/errors.js';
import { parseJsonBody } from '../http/validate.js';
import { clientAddress, setResponseHeaders } from '../http/headers.js';
import { chargeAnonymous, rateLimitHeaders } from '../ratelimit/buckets.js';
import type { Services } from '../services.js';
import { assertUnlockAttemptsLeft, issueUnlockToken, recordUnlockFailure, unlockTokenValid } from './unlock.js';

/**
 * The recipient side of a shared transfer link, mounted at `/api/public` (see
 * src/contract/public.ts). No workspace credential is read or accepted here: the slug is the
 * capability, compared only by exact equality, and every request counts against the anonymous
 * per-address limit.
 */

/** A download page visit lasts this long (never past the transfer's expiry); its links with it. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

const SLUG = /^[A-Za-z0-9_-]{1,100}$/;

function anonymousLimit(services: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const buckets = await chargeAnonymous(services, clientAddress(c, services.config.TRUST_PROXY));
    await next();
    setResponseHeaders(c, { 'Cache-Control': 'no-store', ...rateLimitHeaders(buckets, services.clock.now().getTime()) });
  };
}

/**
 * The sent transfer behind a slug, if its link works now: 404 for an unknown slug or a draft,
 * 410 `link_unavailable` with the reason for one that ended or reached its download limit.
 */
async function openTransfer(services: Services, slug: string): Promise<{ t: TransferRow; workspaceName: string }> {
  if (!SLUG.test(slug)) throw notFound('Transfer');
  const [row] = await services.db
    .select({ t: transfers, workspaceName: workspaces.name, disabledAt: workspaces.disabledAt })
    .from(transfers)
    .innerJoin(workspaces, eq(workspaces.id, transfers.workspaceId))
    .where(eq(transfers.slug, slug));
  if (!row || row.t.finalizedAt === null) throw notFound('Transfer');
  if (row.disabledAt) throw linkUnavailable('suspended');
  assertAvailable(row.t, services.clock.now(), { countLimit: true });
  return { t: row.t, workspaceName: row.workspaceName };
}

const passwordRequired = () => new ApiError('password_required', 'This transfer is protected by a password.');

function assertUnlocked(services: Services, c: Context<AppEnv>, t: TransferRow): void {
  if (t.passwordHash === null) return;
  if (!unlockTokenValid(services, c.req.header(UNLOCK_HEADER), { id: t.id, passwordHash: t.passwordHash }, services.clock.now())) {
    throw passwordRequired();
  }
}

/** A JSON body, where an empty body means `{}`. */
export function publicRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.use('*', anonymousLimit(services));

  app.get('/transfers/:slug', async (c) => {
    const { t, workspaceName } = await openTransfer(services, c.req.param('slug'));
    assertUnlocked(services, c, t);
    const files = await downloadableFiles(services.db, t.id);
    const previews = thumbnailUrls(services, { kind: 'transfer', id: t.id, expiresAt: t.expiresAt }, files);
    const body: PublicTransfer = {
      title: t.title,
      message: t.message,
      workspaceName,
      expiresAt: t.expiresAt.toISOString(),
      hasPassword: t.passwordHash !== null,
      e2ee: t.e2ee,
      e2eeMeta: t.e2ee ? t.e2eeMeta : null,
      files: files.map((f) => ({
        id: f.id,
        name: f.name,
        path: f.path,
        sizeBytes: f.sizeBytes,
        mimeType: f.mimeType,
        crc32: f.crc32!,
        sealedMeta: t.e2ee ? f.sealedMeta : null,
        thumbnailUrl: previews.get(f.id) ?? null,
      })),
      totalBytes: files.reduce((sum, f) => sum + f.sizeBytes, 0),
      zip: t.e2ee ? null : zipSummary(transferZipContent(t, files), services),
    };
    return c.json(body);
  });

  app.post('/transfers/:slug/unlock', async (c) => {
    const { t } = await openTransfer(services, c.req.param('slug'));
    const { password } = await parseJsonBody(c, UnlockRequestSchema, { optional: true });
    const now = services.clock.now();
    const address = clientAddress(c, services.config.TRUST_PROXY);
    if (t.passwordHash === null) {
      // Nothing to prove; a token keeps the client's flow the same.
      const issued = issueUnlockToken(services, { id: t.id, passwordHash: '' }, now);
      return c.json({ unlockToken: issued.token, expiresAt: issued.expiresAt.toISOString() } satisfies UnlockResponse);
    }
    await assertUnlockAttemptsLeft(services, t.id, address);
    if (!(await verifyPassword(password, t.passwordHash))) {
      await recordUnlockFailure(services, t.id, address);
      throw new ApiError('wrong_password', 'That is not the password of this transfer.');
    }
    const issued = issueUnlockToken(services, { id: t.id, passwordHash: t.passwordHash }, now);
    return c.json({ unlockToken: issued.token, expiresAt: issued.expiresAt.toISOString() } satisfies UnlockResponse);
  });

  app.post('/transfers/:slug/sessions', async (c) => {
    const { t } = await openTransfer(services, c.req.param('slug'));
    const { recipientToken } = await parseJsonBody(c, CreateSessionRequestSchema, { optional: true });
    assertUnlocked(services, c, t);
    const now = services.clock.now();

    let recipientId: string | null = null;
    if (recipientToken) {
      // Matched by hash within this transfer only; an unknown token is ignored, not an error.
      const [r] = await services.db
        .select({ id: transferRecipients.id })
        .from(transferRecipients)
        .where(and(eq(transferRecipients.linkTokenHash, sha256(recipientToken)), eq(transferRecipients.transferId, t.id)));
      recipientId = r?.id ?? null;
    }

    const expiresAt = new Date(Math.min(now.getTime() + SESSION_TTL_MS, t.expiresAt.getTime()));
    const sessionId = newId('dls');
    await services.db.insert(downloadSessions).values({
      id: sessionId,
      workspaceId: t.workspaceId,
      transferId: t.id,
      recipientId,
      createdAt: now,
      expiresAt,
    });
    const files = await downloadableFiles(services.db, t.id);
    const urls = linksFor(services, { kind: 'transfer', id: t.id }, files, sessionId, expiresAt);
    const body: DownloadSession = {
      sessionId,
      files: files.map((f) => ({ id: f.id, url: urls.files.get(f.id)! })),
      zip: t.e2ee ? null : { url: urls.zip },
      expiresAt: expiresAt.toISOString(),
    };
    return c.json(body, 201);
  });

  return app;
}

/** The zip's name and size, as the page shows them before anything is downloaded. */
function zipSummary(content: ReturnType<typeof transferZipContent>, services: Pick<Services, 'storage'>) {
  const zip = zipDownload(content.name, content.files, content.since, services.storage);
  return { name: zip.name, sizeBytes: zip.layout.size };
}
