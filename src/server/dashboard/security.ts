import {
  PasskeyListSchema,
  PasskeySchema,
  RegisterPasskeyRequestSchema,
  WebAuthnOptionsSchema,
  ConfirmIdentityRequestSchema,
  EnableTwoStepRequestSchema,
  EndedSessionsSchema,
  RecoveryCodesSchema,
  SessionListSchema,
  TwoStepSetupSchema,
  TwoStepStatusSchema,
} from '../../contract/security.js';
import { listPasskeys, passkeyRegistrationOptions, registerPasskey, removePasskey } from '../auth/passkeys.js';
import { endOtherSessions, endSessionById, listSessions } from '../auth/sessions.js';
import { disableTwoStep, enableTwoStep, regenerateRecoveryCodes, startTwoStepSetup, twoStepStatus } from '../auth/two-step.js';
import { notFound } from '../core/errors.js';
import type { DashboardSurface } from './routes.js';
import { requestAddress, setWebAuthnChallenge, takeWebAuthnChallenge } from './session.js';
import { said } from '../core/sentences.js';

const SESSION_ID = ['ses', 'Session'] as const;
const PASSKEY_ID = ['pk', 'Passkey'] as const;

/**
 * /api/dashboard/security: the signed-in person's own sign-in safety (Settings → Security):
 * two-step verification with an authenticator app and its recovery codes, and their sessions.
 * Turning two-step verification on or off ends every other session of the person.
 */
export function securityRoutes(surface: DashboardSurface) {
  surface
    .route({ method: 'get', path: '/two-step', auth: 'self', summary: 'Whether two-step verification is on, and how many recovery codes are left', success: { status: 200, schema: TwoStepStatusSchema } }, async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await twoStepStatus(c.var.services.db, c.var.user.userId));
    })
    .route(
      {
        method: 'post',
        path: '/two-step/setup',
        auth: 'self',
        summary: 'Start setting up an authenticator app: a new secret and its otpauth URI',
        description: 'Nothing changes until `POST /two-step/enable` confirms it with a first code. 409 `two_step_on` when it is on already.',
        success: { status: 200, schema: TwoStepSetupSchema },
      },
      async (c) => {
        c.header('Cache-Control', 'no-store');
        return c.json(await startTwoStepSetup(c.var.services, c.var.user));
      },
    )
    .route(
      {
        method: 'post',
        path: '/two-step/enable',
        auth: 'self',
        summary: 'Turn two-step verification on, with the password and a first code: ten recovery codes, shown once',
        description: 'Every other session of the person ends. Wrong codes and passwords count toward the limit of wrong guesses (429).',
        body: EnableTwoStepRequestSchema,
        success: { status: 200, schema: RecoveryCodesSchema },
      },
      async (c, { body }) => {
        c.header('Cache-Control', 'no-store');
        return c.json(await enableTwoStep(c.var.services, c.var.user, body, requestAddress(c)));
      },
    )
    .route(
      {
        method: 'post',
        path: '/two-step/disable',
        auth: 'self',
        summary: 'Turn two-step verification off, with a current code or the password',
        description: 'The recovery codes and trusted browsers go, and every other session of the person ends.',
        body: ConfirmIdentityRequestSchema,
        success: { status: 204 },
      },
      async (c, { body }) => {
        await disableTwoStep(c.var.services, c.var.user, body, requestAddress(c));
        return c.body(null, 204);
      },
    )
    .route(
      {
        method: 'post',
        path: '/two-step/recovery-codes',
        auth: 'self',
        summary: 'Ten new recovery codes in place of the old ones, with a current code or the password',
        body: ConfirmIdentityRequestSchema,
        success: { status: 200, schema: RecoveryCodesSchema },
      },
      async (c, { body }) => {
        c.header('Cache-Control', 'no-store');
        return c.json(await regenerateRecoveryCodes(c.var.services, c.var.user, body, requestAddress(c)));
      },
    )
    .route({ method: 'get', path: '/passkeys', auth: 'self', summary: "The person's passkeys", success: { status: 200, schema: PasskeyListSchema } }, async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json({ passkeys: await listPasskeys(c.var.services, c.var.user.userId) });
    })
    .route(
      {
        method: 'post',
        path: '/passkeys/options',
        auth: 'self',
        summary: 'Start adding a passkey: the options for navigator.credentials.create()',
        description: 'A discoverable credential with user verification, for PUBLIC_URL’s host. The challenge (five minutes) rides in the `parcel_webauthn` cookie.',
        success: { status: 200, schema: WebAuthnOptionsSchema },
      },
      async (c) => {
        const { options, ...challenge } = await passkeyRegistrationOptions(c.var.services, c.var.user);
        setWebAuthnChallenge(c, challenge);
        c.header('Cache-Control', 'no-store');
        return c.json({ options });
      },
    )
    .route(
      {
        method: 'post',
        path: '/passkeys',
        auth: 'self',
        summary: 'Keep the passkey the browser made, with its name',
        description: '400 `challenge_expired` without a live challenge, `passkey_not_verified` when the credential does not check out; 409 `passkey_exists`.',
        body: RegisterPasskeyRequestSchema,
        success: { status: 201, schema: PasskeySchema },
      },
      async (c, { body }) => c.json(await registerPasskey(c.var.services, c.var.user, takeWebAuthnChallenge(c), body), 201),
    )
    .route(
      { method: 'delete', path: '/passkeys/:id', auth: 'self', summary: 'Remove a passkey (the other sessions end)', ids: { id: PASSKEY_ID }, success: { status: 204 } },
      async (c, { params }) => {
        await removePasskey(c.var.services, c.var.user, params.id);
        return c.body(null, 204);
      },
    )
    .route({ method: 'get', path: '/sessions', auth: 'self', summary: "The person's sessions, most recently used first", success: { status: 200, schema: SessionListSchema } }, async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json({ sessions: await listSessions(c.var.services, c.var.user) });
    })
    .route(
      { method: 'post', path: '/sessions/end-others', auth: 'self', summary: 'Sign out everywhere else: every session of the person but this one ends', success: { status: 200, schema: EndedSessionsSchema } },
      async (c) => c.json({ ended: await endOtherSessions(c.var.services.db, c.var.user) }),
    )
    .route(
      { method: 'delete', path: '/sessions/:id', auth: 'self', summary: 'Sign one session out (this one too, if it is named)', ids: { id: SESSION_ID }, success: { status: 204 } },
      async (c, { params }) => {
        if (!(await endSessionById(c.var.services, c.var.user.userId, params.id))) throw notFound(said({ id: 'api.dashboard.sessionNotFound', defaultMessage: 'Session not found' }));
        return c.body(null, 204);
      },
    );
}
