import { z } from '@hono/zod-openapi';
import { CompletePasswordResetSchema, RequestPasswordResetSchema, SessionSchema } from '../../contract/dashboard.js';
import { completePasswordReset, requestPasswordReset } from '../auth/sign-in.js';
import { clientAddress } from '../http/headers.js';
import { readerLanguage } from '../http/reader-language.js';
import type { DashboardSurface } from './routes.js';
import { signInAs } from './session.js';

/**
 * /api/dashboard/password-reset: a forgotten password, reset through a single-use link mailed to
 * the account's address and valid 30 minutes. Asking answers the same whether or not the address
 * has an account. Setting the new password ends every session of the account and signs this one in.
 */
export function passwordResetRoutes(surface: DashboardSurface) {
  surface
    .route(
      { method: 'post', path: '/', auth: 'anyone', summary: 'Mail a password reset link', body: RequestPasswordResetSchema, success: { status: 202, schema: z.object({ sent: z.literal(true) }) } },
      async (c, { body }) => {
        // Written in the person's own language, else the page's they asked from.
        await requestPasswordReset(c.var.services, body.email, clientAddress(c, c.var.services.config.TRUST_PROXY), readerLanguage(c).locale);
        return c.json({ sent: true }, 202);
      },
    )
    .route(
      { method: 'post', path: '/complete', auth: 'anyone', summary: "Set a new password with the link's token, signed in", body: CompletePasswordResetSchema, success: { status: 200, schema: SessionSchema } },
      async (c, { body }) => signInAs(c, await completePasswordReset(c.var.services, body)),
    );
}
