import { memberActor } from '../activity/activity.js';
import {
  AccessTokenSchema,
  ApiKeyListSchema,
  ChangePasswordRequestSchema,
  CreateApiKeyRequestSchema,
  CreateApiKeyResponseSchema,
  OwnLanguageRequestSchema,
  RenameWorkspaceRequestSchema,
  SessionSchema,
  SetupQuerySchema,
  SetupStateSchema,
  SignInRequestSchema,
  SignUpRequestSchema,
  TwoStepRequirementSchema,
} from '../../contract/dashboard.js';
import { PasskeySignInRequestSchema, SecondStepRequestSchema, WebAuthnOptionsSchema } from '../../contract/security.js';
import { passkeySignInOptions } from '../auth/passkeys.js';
import { chargeAnonymous } from '../ratelimit/buckets.js';
import { apiKeyBody, createApiKey, listApiKeys, revokeApiKey } from '../auth/api-keys.js';
import { mintSessionAccessToken, sessionBody, setOwnLanguage } from '../auth/sessions.js';
import { changePassword, checkPassword, signUp } from '../auth/sign-in.js';
import { notFound } from '../core/errors.js';
import { Surface } from '../http/surface.js';
import { renameWorkspace, setWorkspaceRequirement } from '../workspaces/accounts.js';
import { setupState } from '../workspaces/operator.js';
import { activityRoutes } from './activity.js';
import { adminRoutes } from './admin-routes.js';
import { connectedAppRoutes } from './connected-apps.js';
import { contactImportRoutes } from './contacts.js';
import { mailRoutes } from './mail.js';
import { joinRoutes, memberRoutes, workspaceSwitchRoutes } from './members.js';
import { notificationSettingsRoutes } from './notification-settings.js';
import { passwordResetRoutes } from './password-reset.js';
import { securityRoutes } from './security.js';
import { singleSignOnRoutes } from './single-sign-on.js';
import { completePasskeySignIn, completeSecondStep, dashboardAuth, requestAddress, setWebAuthnChallenge, dashboardSecuritySchemes, endSession, sameOriginOnly, signInAs } from './session.js';
import { vaultRoutes } from './vault.js';
import { said } from '../core/sentences.js';

export type DashboardSurface = Surface<keyof typeof dashboardAuth>;

/** /api/dashboard: what the public API does not cover. Session cookie, same origin only. */
export function dashboardRoutes() {
  const surface = Surface.create(dashboardAuth, dashboardSecuritySchemes).use(sameOriginOnly);

  surface
    .route(
      { method: 'get', path: '/setup', auth: 'anyone', summary: 'What the sign-up page needs to know', query: SetupQuerySchema, success: { status: 200, schema: SetupStateSchema } },
      async (c, { query }) => {
        c.header('Cache-Control', 'no-store');
        return c.json(await setupState(c.var.services, query.invite));
      },
    )
    .route(
      { method: 'post', path: '/signup', auth: 'anyone', summary: 'Create an account and its workspace, signed in', body: SignUpRequestSchema, success: { status: 201, schema: SessionSchema } },
      async (c, { body }) => signInAs(c, await signUp(c.var.services, body), 201),
    )
    .route({ method: 'post', path: '/signin', auth: 'anyone', summary: 'Sign in with email and password (401 `second_step_required` when a code is needed too)', body: SignInRequestSchema, success: { status: 200, schema: SessionSchema } }, async (c, { body }) =>
      signInAs(c, await checkPassword(c.var.services, body, requestAddress(c))),
    )
    .route(
      {
        method: 'post',
        path: '/signin/second-step',
        auth: 'anyone',
        summary: 'Finish signing in with a code from the authenticator app, or a recovery code',
        description:
          'After `POST /signin` (or a reset link, or joining) answered 401 `second_step_required` and set the `parcel_sign_in` cookie, good for ten minutes. A code works once. `trustBrowser` skips this step in this browser for 30 days. 401 `sign_in_expired` without a live challenge; 400 naming `code` for a wrong code; 429 after too many.',
        body: SecondStepRequestSchema,
        success: { status: 200, schema: SessionSchema },
      },
      async (c, { body }) => completeSecondStep(c, body),
    )
    .route(
      {
        method: 'post',
        path: '/signin/passkey/options',
        auth: 'anyone',
        summary: 'Start signing in with a passkey: the options for navigator.credentials.get()',
        description: 'Any discoverable passkey of this site, with user verification. The challenge (five minutes) rides in the `parcel_webauthn` cookie. Counted against the anonymous per-address limit (429).',
        success: { status: 200, schema: WebAuthnOptionsSchema },
      },
      async (c) => {
        // Anyone may ask, and each asking keeps a challenge: counted like any request without a credential.
        await chargeAnonymous(c.var.services, requestAddress(c));
        const { options, ...challenge } = await passkeySignInOptions(c.var.services);
        setWebAuthnChallenge(c, challenge);
        c.header('Cache-Control', 'no-store');
        return c.json({ options });
      },
    )
    .route(
      {
        method: 'post',
        path: '/signin/passkey',
        auth: 'anyone',
        summary: 'Sign in with a passkey alone (it counts as both steps)',
        description: '400 `challenge_expired` without a live challenge; 401 for a passkey this server does not know or whose signature does not check out.',
        body: PasskeySignInRequestSchema,
        success: { status: 200, schema: SessionSchema },
      },
      async (c, { body }) => completePasskeySignIn(c, body.credential),
    )
    .route({ method: 'post', path: '/signout', auth: 'anyone', summary: 'Sign out (the session and its tokens end)', success: { status: 204 } }, async (c) => {
      await endSession(c);
      return c.body(null, 204);
    })
    .route({ method: 'get', path: '/session', auth: 'self', summary: 'The signed-in user and workspace', success: { status: 200, schema: SessionSchema } }, (c) =>
      c.json(sessionBody(c.var.user, c.var.services.config)),
    )
    .route(
      {
        method: 'put',
        path: '/language',
        auth: 'self',
        summary: 'Choose your own language (Settings), or follow the browser’s',
        description:
          'The dashboard is then served in it on every device where you are signed in, and the mail written to you is in it. It is also the default language of the mail to the recipients and guests you address (each can be given their own, see `recipientLanguages`).',
        body: OwnLanguageRequestSchema,
        success: { status: 200, schema: SessionSchema },
      },
      async (c, { body }) => {
        await setOwnLanguage(c.var.services.db, c.var.user.userId, body.language);
        return c.json(sessionBody({ ...c.var.user, language: body.language }, c.var.services.config));
      },
    )
    .route(
      { method: 'patch', path: '/workspace', auth: 'admin', summary: 'Rename the workspace', body: RenameWorkspaceRequestSchema, success: { status: 200, schema: SessionSchema } },
      async (c, { body }) => {
        await renameWorkspace(c.var.services.db, c.var.user.workspaceId, body.name);
        return c.json(sessionBody({ ...c.var.user, workspaceName: body.name }, c.var.services.config));
      },
    )
    .route(
      {
        method: 'put',
        path: '/workspace/two-step-requirement',
        auth: 'admin',
        summary: 'Require two-step verification of everyone in the workspace, or stop requiring it',
        description:
          'While required, a member without it is sent to set it up: every dashboard operation but the session, Settings → Security and the workspace switcher answers 403 `two_step_required`, as do the bearer tokens minted from their session. Requiring it is refused (409 `two_step_off`) until you have it on yourself. API keys are the workspace’s, not a person’s: they keep working.',
        body: TwoStepRequirementSchema,
        success: { status: 200, schema: SessionSchema },
      },
      async (c, { body }) => {
        const { services } = c.var;
        await setWorkspaceRequirement(services.db, c.var.user, 'two_step', body.required, services.clock.now());
        return c.json(sessionBody({ ...c.var.user, workspaceRequiresTwoStep: body.required }, services.config));
      },
    )
    .route(
      {
        method: 'post',
        path: '/password',
        auth: 'self',
        summary: 'Change the password',
        description: 'Given the current one. Every other session of the user ends (and the dashboard tokens minted from them); this one stays signed in.',
        body: ChangePasswordRequestSchema,
        success: { status: 204 },
      },
      async (c, { body }) => {
        await changePassword(c.var.services, c.var.user, body, requestAddress(c));
        return c.body(null, 204);
      },
    )
    .route(
      {
        method: 'post',
        path: '/token',
        auth: 'session',
        summary: 'A short-lived bearer token for /api/v1',
        description: 'So the dashboard uses /api/v1 exactly as an integrator does; it never outlives the session and holds the scopes of the plan.',
        success: { status: 200, schema: AccessTokenSchema },
      },
      async (c) => c.json(await mintSessionAccessToken(c.var.services, c.var.user)),
    )
    .route({ method: 'get', path: '/keys', auth: 'admin', summary: "The workspace's API keys", success: { status: 200, schema: ApiKeyListSchema } }, async (c) => {
      const rows = await listApiKeys(c.var.services.db, c.var.user.workspaceId);
      return c.json({ keys: rows.map(apiKeyBody) });
    })
    .route(
      { method: 'post', path: '/keys', auth: 'admin', summary: 'Create an API key (its secret is shown once)', body: CreateApiKeyRequestSchema, success: { status: 201, schema: CreateApiKeyResponseSchema } },
      async (c, { body }) => {
        const { db, clock } = c.var.services;
        const user = c.var.user;
        const { row, secret } = await createApiKey(db, clock.now(), user.workspaceId, user.plan, body.name, body.scopes, memberActor(user));
        return c.json({ key: apiKeyBody({ ...row, creatorName: user.name, creatorEmail: user.email }), secret }, 201);
      },
    )
    .route({ method: 'delete', path: '/keys/:id', auth: 'admin', summary: 'Revoke an API key', ids: { id: ['key', 'API key'] }, success: { status: 204 } }, async (c, { params }) => {
      const { db, clock } = c.var.services;
      if (!(await revokeApiKey(db, clock.now(), c.var.user.workspaceId, params.id, memberActor(c.var.user)))) throw notFound(said({ id: 'api.dashboard.apiKeyNotFound', defaultMessage: 'API key not found' }));
      return c.body(null, 204);
    });

  contactImportRoutes(surface.group('/contacts'));
  mailRoutes(surface.group('/mail'));
  notificationSettingsRoutes(surface.group('/notifications'));
  passwordResetRoutes(surface.group('/password-reset'));
  adminRoutes(surface.group('/admin'));
  vaultRoutes(surface.group('/vault'));
  connectedAppRoutes(surface.group('/connected-apps'));
  memberRoutes(surface.group('/members'));
  activityRoutes(surface.group('/activity'));
  securityRoutes(surface.group('/security'));
  workspaceSwitchRoutes(surface.group('/workspaces'));
  joinRoutes(surface.group('/join'));
  singleSignOnRoutes(surface);

  surface.serveDocument({ title: 'Parcel dashboard API', description: 'What the dashboard calls beside /api/v1 (sign-in, keys, settings, the vault, administration). Internal: it changes with the app.', mount: '/api/dashboard' });
  return surface.app;
}
