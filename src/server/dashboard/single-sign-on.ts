import {
  SignInProviderListSchema,
  SingleSignOnRequirementSchema,
  SingleSignOnSettingsSchema,
  SingleSignOnStartQuerySchema,
  TieSignInDomainRequestSchema,
} from '../../contract/security.js';
import { SessionSchema } from '../../contract/dashboard.js';
import { sessionBody } from '../auth/sessions.js';
import { setWorkspaceRequirement } from '../workspaces/accounts.js';
import { callbackPath, signInProviderChoices, singleSignOnSettings, tieSignInDomain, untieSignInDomain } from '../auth/single-sign-on.js';
import type { DashboardSurface } from './routes.js';
import { leaveForProvider, returnFromProvider } from './session.js';

/**
 * Single sign-on (docs/security.md): signing in through an identity provider the operator set up
 * (`/signin/sso…`, browser navigations that end in the app), and a workspace's sign-in domains and
 * requirement (`/workspace/single-sign-on…`, its owner's and admins').
 */
export function singleSignOnRoutes(surface: DashboardSurface) {
  surface
    .route(
      { method: 'get', path: '/signin/providers', auth: 'anyone', summary: 'The identity providers one may sign in through', success: { status: 200, schema: SignInProviderListSchema } },
      async (c) => c.json({ providers: await signInProviderChoices(c.var.services.db) }),
    )
    .route(
      {
        method: 'get',
        path: '/signin/sso',
        auth: 'anyone',
        summary: 'Sign in through an identity provider: a browser navigation to it',
        description:
          'Answers 303 to the provider’s authorization page (code flow with PKCE S256, `state` and `nonce`), keeping them behind the `parcel_sso` cookie for ten minutes. The provider sends the browser back to `GET /signin/sso/callback`. An unknown or unreachable provider lands on `/signin?sso_error=unavailable`.',
        query: SingleSignOnStartQuerySchema,
        success: { status: 303, description: 'To the identity provider.' },
      },
      async (c, { query }) => leaveForProvider(c, query.provider),
    )
    .route(
      {
        method: 'get',
        path: '/signin/sso/callback',
        auth: 'anyone',
        summary: 'Where the identity provider sends the browser back',
        description: `The redirect URI to register with each provider: PUBLIC_URL + \`${callbackPath}\`. Checks the state against the browser's cookie, exchanges the code, verifies the ID token (signature, issuer, audience, nonce) and needs a verified email. Answers 303 to \`/\` signed in, to \`/signin?second_step=1\` when two-step verification is on, or to \`/signin?sso_error=…\` (\`expired\`, \`refused\`, \`unverified_email\`, \`no_workspace\`, \`member_limit\`, \`unavailable\`, \`disabled\`).`,
        success: { status: 303, description: 'Into the app.' },
      },
      async (c) => returnFromProvider(c),
    )
    .route(
      { method: 'get', path: '/workspace/single-sign-on', auth: 'admin', summary: 'The workspace’s sign-in domains and whether single sign-on is required', success: { status: 200, schema: SingleSignOnSettingsSchema } },
      async (c) => c.json(await singleSignOnSettings(c.var.services.db, c.var.user.workspaceId)),
    )
    .route(
      {
        method: 'post',
        path: '/workspace/single-sign-on/domains',
        auth: 'admin',
        summary: 'Tie an email domain to an identity provider',
        description:
          'People signing in through that provider with a verified address on the domain join the workspace as members (or are matched to their account). Only the domain of your own address can be tied (403 `not_your_domain`), and a domain belongs to one workspace (409 `domain_taken`).',
        body: TieSignInDomainRequestSchema,
        success: { status: 201, schema: SingleSignOnSettingsSchema },
      },
      async (c, { body }) => {
        const { services } = c.var;
        await tieSignInDomain(services.db, c.var.user, body, services.clock.now());
        return c.json(await singleSignOnSettings(services.db, c.var.user.workspaceId), 201);
      },
    )
    .route(
      {
        method: 'delete',
        path: '/workspace/single-sign-on/domains/:domain',
        auth: 'admin',
        summary: 'Untie an email domain',
        description: 'The last domain stays while single sign-on is required (409 `single_sign_on_required`).',
        success: { status: 200, schema: SingleSignOnSettingsSchema },
      },
      async (c, { params }) => {
        const { services } = c.var;
        await untieSignInDomain(services.db, c.var.user, params.domain, services.clock.now());
        return c.json(await singleSignOnSettings(services.db, c.var.user.workspaceId));
      },
    )
    .route(
      {
        method: 'put',
        path: '/workspace/single-sign-on/requirement',
        auth: 'admin',
        summary: 'Require single sign-on of everyone in the workspace, or stop requiring it',
        description:
          'While required, a session signed in with a password or a passkey is sent to sign in through the provider: every dashboard operation but the session and the workspace switcher answers 403 `single_sign_on_required`, as do the bearer tokens minted from it. Requiring it is refused (409 `single_sign_on_off`) until you signed in through a provider tied to this workspace yourself. API keys are the workspace’s: they keep working.',
        body: SingleSignOnRequirementSchema,
        success: { status: 200, schema: SessionSchema },
      },
      async (c, { body }) => {
        const { services } = c.var;
        await setWorkspaceRequirement(services.db, c.var.user, 'single_sign_on', body.required, services.clock.now());
        return c.json(sessionBody({ ...c.var.user, workspaceRequiresSingleSignOn: body.required }, services.config));
      },
    );
}
