import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { MemoryLocker } from '@tus/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateApiKeyRequestSchema,
  RenameWorkspaceRequestSchema,
  TwoStepRequirementSchema,
  ChangePasswordRequestSchema,
  CompletePasswordResetSchema,
  InviteRequestSchema,
  RequestPasswordResetSchema,
  SetupQuerySchema,
  SignInRequestSchema,
  SignUpRequestSchema,
  UpdateAdminPersonSchema,
  UpdateAdminWorkspaceSchema,
  UpdateNotificationSettingsRequestSchema,
} from '../contract/dashboard.js';
import { ActivityFilterSchema, ActivityQuerySchema } from '../contract/activity.js';
import { ConfirmIdentityRequestSchema, EnableTwoStepRequestSchema, PasskeySignInRequestSchema, RegisterPasskeyRequestSchema, SecondStepRequestSchema, SingleSignOnRequirementSchema, SingleSignOnStartQuerySchema, TieSignInDomainRequestSchema } from '../contract/security.js';
import { CreateCommentRequestSchema, SetReviewRequestSchema } from '../contract/collections.js';
import { ImportContactsRequestSchema } from '../contract/contacts.js';
import { ErrorSchema } from '../contract/errors.js';
import { ConsentDecisionSchema } from '../contract/oauth.js';
import {
  ChangeRoleRequestSchema,
  DeleteWorkspaceRequestSchema,
  InvitationTokenSchema,
  InviteMemberRequestSchema,
  JoinSignInRequestSchema,
  JoinSignUpRequestSchema,
  SwitchWorkspaceRequestSchema,
  TransferOwnershipRequestSchema,
} from '../contract/members.js';
import {
  CollectionUnlockRequestSchema,
  GuestSessionRequestSchema,
  GuestUploadRequestSchema,
  GuestSignInRequestSchema,
  PublicCollectionDownloadLinksQuerySchema,
  PublicCollectionFilesQuerySchema,
} from '../contract/public-collections.js';
import { AddSubmissionFilesRequestSchema, StartSubmissionRequestSchema } from '../contract/public-requests.js';
import { CreateSessionRequestSchema, UnlockRequestSchema } from '../contract/public.js';
import {
  CreateVaultFolderRequestSchema,
  DeleteVaultFolderQuerySchema,
  DeleteVaultItemsRequestSchema,
  RegisterVaultItemsRequestSchema,
  UpdateVaultFolderRequestSchema,
  UpdateVaultItemRequestSchema,
  VaultRecordRequestSchema,
} from '../contract/vault.js';
import { randomBase62 } from './core/secrets.js';
import { createApp } from './assembly/app.js';
import { tools } from './mcp/tools.js';
import { startTestServerAtPublicUrl, type TestServer } from './test/harness.js';
import { exampleOf, fieldNamesOf, paramsOf, registeredEndpoints, setAt, v1RequestSchemas, type Endpoint, type RequestSchemas } from './test/route-matrix.js';
import { credentialHeaders, seedWorkspace, type WorkspaceFixture } from './test/workspace-fixture.js';

/**
 * Cross-workspace isolation, the whole matrix. Workspace A holds one of every resource; workspace B
 * holds every kind of credential there is (API key, dashboard session and token, OAuth token, guest
 * session, uploader's submission token, upload token, transfer unlock token, signed download URL).
 *
 * Every endpoint the app registers is walked from Hono's own route table (and /api/v1's `v1Operations`
 * for request schemas), so a new endpoint is covered without editing this file, or fails it until
 * its parameter names a kind of resource. A's ids go into the path (A's parent and child, and B's own
 * parent with A's child), the query and the body (a valid body, made from the request schema); A's
 * locked links, B's signed URL pointed at A's file and A's page cursors go where links, tokens and
 * cursors go. Each request is sent with each of B's credentials and must be refused with 401, 403 or
 * 404 in the Error shape, answered exactly as the same request with ids that name nothing, and hold
 * nothing of A (no id, secret, name, address or file name). B's own reads (a search for A's label
 * included), the MCP tools, B's upload token on A's tus upload and an Idempotency-Key A used show
 * nothing of A either; and afterwards every resource of A is as it was, its bytes downloadable, its
 * credentials working, with no call of B's counted as A's and nothing of B's in A's data.
 */

let server: TestServer;
let A: WorkspaceFixture;
let B: WorkspaceFixture;
let publicUrl: string;

beforeAll(async () => {
  // Webhooks and imports point at loopback.
  ({ server, publicUrl } = await startTestServerAtPublicUrl({
    WEBHOOKS_ALLOW_INSECURE: '1',
    IMPORTS_ALLOW_INSECURE: '1',
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
    RATE_LIMIT_KEY_PER_MINUTE: '100000',
  }));
  // A first: the first account is the server's operator, so A also has what only an operator has.
  A = await seedWorkspace(server, 'Alpha');
  B = await seedWorkspace(server, 'Bravo');
}, 120_000);
afterAll(() => server?.stop());

// ---------------------------------------------------------------------------------------------
// B's credentials, as each is presented

type CredentialName = 'key' | 'dashboardToken' | 'oauth' | 'session' | 'guest' | 'uploader' | 'uploadToken' | 'unlockToken' | 'signedUrl';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const dlToken = (url: string) => new URL(url).pathname.replace(/^\/dl\//, '');

function credentialsOf(f: WorkspaceFixture): Record<CredentialName, Record<string, string>> {
  return {
    key: bearer(f.key),
    dashboardToken: bearer(f.dashboardToken),
    oauth: bearer(f.oauthToken),
    session: credentialHeaders.session(f, publicUrl),
    guest: credentialHeaders.guest(f),
    uploader: credentialHeaders.uploader(f),
    uploadToken: credentialHeaders.uploadToken(f),
    unlockToken: credentialHeaders.unlockToken(f),
    // A capability, not a credential: sent as one, as a confused or hostile client would.
    signedUrl: bearer(dlToken(f.transfer.downloadUrl)),
  };
}

/** B's signed download token with its payload pointed at A's transfer and file, signature kept. */
function forgedDownloadToken(): string {
  const [body, mac] = dlToken(B.transfer.downloadUrl).split('.') as [string, string];
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
  const forged = { ...payload, t: A.transfer.id, f: A.transfer.fileId };
  return `${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${mac}`;
}

// ---------------------------------------------------------------------------------------------
// What each path parameter, query field and body field names: A's resource and B's own of the kind

/**
 * `a` addresses A's resource, `b` B's own of the kind. Without `a` the parameter is a link anyone
 * holding it may use (then B's own is used). A `capability` is a secret link rather than an id:
 * A's locked one, which nothing of B's may open.
 */
interface Ref {
  a?: string;
  b: string;
  capability?: boolean;
}

/**
 * The resource a path parameter names, by the pattern up to and including it, so every endpoint
 * under a known prefix is covered as it is added. The transfer entries come in two variants: the
 * sent transfer and the draft (with their files).
 */
function directories(): Map<string, Ref>[] {
  const common: [string, Ref][] = [
    ['/api/v1/collections/:id', { a: A.collection.id, b: B.collection.id }],
    ['/api/v1/collections/:id/folders/:folderId', { a: A.collection.folderId, b: B.collection.folderId }],
    ['/api/v1/collections/:id/files/:fileId', { a: A.collection.fileId, b: B.collection.fileId }],
    ['/api/v1/collections/:id/guests/:guestId', { a: A.collection.guestId, b: B.collection.guestId }],
    ['/api/v1/collections/:id/trash/:itemId', { a: A.collection.trashedFolderId, b: B.collection.trashedFolderId }],
    ['/api/v1/requests/:id', { a: A.request.id, b: B.request.id }],
    ['/api/v1/requests/:id/submissions/:submissionId', { a: A.request.submissionId, b: B.request.submissionId }],
    ['/api/v1/contacts/:id', { a: A.contact.id, b: B.contact.id }],
    ['/api/v1/webhooks/:id', { a: A.webhook.id, b: B.webhook.id }],
    ['/api/v1/webhooks/:id/deliveries/:deliveryId', { a: A.webhook.deliveryId, b: B.webhook.deliveryId }],
    ['/api/v1/imports/:fileId', { a: A.draft.importFileId, b: B.draft.importFileId }],
    ['/api/dashboard/keys/:id', { a: A.keyId, b: B.keyId }],
    ['/api/dashboard/mail/:id', { a: A.mailId, b: B.mailId }],
    ['/api/dashboard/admin/workspaces/:id', { a: A.ws.id, b: B.ws.id }],
    ['/api/dashboard/admin/people/:id', { a: A.ws.userId, b: B.ws.userId }],
    ['/api/dashboard/admin/invites/:id', { a: A.inviteId!, b: A.inviteId! }],
    ['/api/dashboard/vault/items/:id', { a: A.vault.itemId, b: B.vault.itemId }],
    ['/api/dashboard/vault/folders/:id', { a: A.vault.folderId, b: B.vault.folderId }],
    ['/api/dashboard/connected-apps/:id', { a: A.grantId, b: B.grantId }],
    ['/api/dashboard/members/invitations/:id', { a: A.memberInvitationId, b: B.memberInvitationId }],
    ['/api/dashboard/members/:userId', { a: A.ws.userId, b: B.ws.userId }],
    ['/api/dashboard/workspaces/holding/:id', { a: A.collection.id, b: B.collection.id }],
    ['/api/dashboard/security/sessions/:id', { a: A.sessionId, b: B.sessionId }],
    ['/api/dashboard/security/passkeys/:id', { a: A.passkeyId, b: B.passkeyId }],
    ['/api/dashboard/workspace/single-sign-on/domains/:domain', { a: A.signInDomain, b: B.signInDomain }],
    // A's links are locked (a password; invited guests only): B's unlock token or guest session must not open them.
    ['/api/public/transfers/:slug', { a: A.transfer.slug, b: B.transfer.slug, capability: true }],
    ['/api/public/collections/:slug', { a: A.collection.slug, b: B.collection.slug, capability: true }],
    ['/api/public/collections/:slug/files/:fileId', { a: A.collection.fileId, b: B.collection.fileId }],
    // An open upload request's link is for anyone by design; A's submissions and files behind B's own link are the crossing.
    ['/api/public/requests/:slug', { b: B.request.slug }],
    ['/api/public/requests/:slug/submissions/:id', { a: A.request.submissionId, b: B.request.submissionId }],
    ['/api/public/requests/:slug/submissions/:id/files/:fileId', { a: A.request.submissionFileId, b: B.request.submissionFileId }],
    ['/dl/:token', { a: forgedDownloadToken(), b: dlToken(B.transfer.downloadUrl), capability: true }],
    ['/thumb/:token', { a: forgedDownloadToken(), b: dlToken(B.transfer.downloadUrl), capability: true }],
    ['/oauth/consent/:uid', { a: A.pendingConsentUid, b: B.pendingConsentUid, capability: true }],
    ['/files/*', { a: A.draft.fileId, b: B.draft.fileId }],
  ];
  const variant = (t: { id: string; fileId: string }, u: { id: string; fileId: string }) =>
    new Map<string, Ref>([...common, ['/api/v1/transfers/:id', { a: t.id, b: u.id }], ['/api/v1/transfers/:id/files/:fileId', { a: t.fileId, b: u.fileId }]]);
  return [variant(A.transfer, B.transfer), variant(A.draft, B.draft)];
}

/** The resource a body or query field names, by its name, on the vault's side and everywhere else. */
function fieldRefs(path: string): Record<string, Ref & { many?: boolean }> {
  // A WebAuthn credential's JSON names the credential by `id` and `rawId`: A's passkey, presented by B.
  if (path.startsWith('/api/dashboard/signin/passkey') || path.startsWith('/api/dashboard/security/passkeys')) {
    const credential = { a: `cred-${A.passkeyId}`, b: `cred-${B.passkeyId}` };
    return { id: credential, rawId: credential };
  }
  // Identity providers are the server's, not a workspace's: any workspace may tie a domain to any of them.
  if (path.startsWith('/api/dashboard/workspace/single-sign-on')) return { providerId: { a: A.ssoProviderId, b: A.ssoProviderId } };
  if (path.startsWith('/api/dashboard/vault')) {
    return {
      folderId: { a: A.vault.folderId, b: B.vault.folderId },
      parentId: { a: A.vault.folderId, b: B.vault.folderId },
      ids: { a: A.vault.itemId, b: B.vault.itemId, many: true },
    };
  }
  return {
    folderId: { a: A.collection.folderId, b: B.collection.folderId },
    parentId: { a: A.collection.folderId, b: B.collection.folderId },
    uploadFolderId: { a: A.collection.folderId, b: B.collection.folderId },
    coverFileId: { a: A.collection.fileId, b: B.collection.fileId },
    fileIds: { a: A.collection.fileId, b: B.collection.fileId, many: true },
    collectionId: { a: A.collection.id, b: B.collection.id },
    deliveryId: { a: A.webhook.deliveryId, b: B.webhook.deliveryId },
    // Handing ownership to A's owner; moving a session into A's workspace.
    userId: { a: A.ws.userId, b: B.ws.userId },
    workspaceId: { a: A.ws.id, b: B.ws.id },
  };
}

const isIdField = (name: string) => /(^id|Id|^ids|Ids)$/.test(name);

/** A list's page cursors that A was given, by route: B's request with one must page nothing of A's. */
const cursorsOfA = new Map<string, string>();

/** Takes a cursor from each list of A's that pages, asking for one item at a time. */
async function collectCursorsOfA() {
  const [directory] = directories();
  for (const [route, schemas] of v1RequestSchemas()) {
    const [method, pattern] = route.split(' ') as [string, string];
    if (method !== 'GET' || !schemas.query || !fieldNamesOf(schemas.query).some(([name]) => name === 'cursor')) continue;
    const url = paramsOf(pattern).reduce((u, p) => u.replace(`:${p}`, directory!.get(u.slice(0, u.indexOf(`:${p}`) + p.length + 1))!.a!), pattern);
    const res = await server.fetch(`${url}?limit=1`, { token: A.key });
    const next = res.ok ? ((await res.json()) as { nextCursor?: string | null }).nextCursor : null;
    if (next) cursorsOfA.set(route, next);
  }
  if (cursorsOfA.size === 0) throw new Error('A has no list long enough to page');
}

/** The request schemas of the routes outside /api/v1, which have no route table of their own. */
const otherRequestSchemas = new Map<string, RequestSchemas>([
  ['GET /api/dashboard/setup', { query: SetupQuerySchema }],
  ['POST /api/dashboard/signup', { body: SignUpRequestSchema }],
  ['POST /api/dashboard/signin', { body: SignInRequestSchema }],
  ['PATCH /api/dashboard/workspace', { body: RenameWorkspaceRequestSchema }],
  ['PUT /api/dashboard/workspace/two-step-requirement', { body: TwoStepRequirementSchema }],
  ['GET /api/dashboard/signin/sso', { query: SingleSignOnStartQuerySchema }],
  ['POST /api/dashboard/workspace/single-sign-on/domains', { body: TieSignInDomainRequestSchema }],
  ['PUT /api/dashboard/workspace/single-sign-on/requirement', { body: SingleSignOnRequirementSchema }],
  ['POST /api/dashboard/password', { body: ChangePasswordRequestSchema }],
  ['POST /api/dashboard/signin/second-step', { body: SecondStepRequestSchema }],
  ['POST /api/dashboard/signin/passkey', { body: PasskeySignInRequestSchema }],
  ['POST /api/dashboard/security/passkeys', { body: RegisterPasskeyRequestSchema }],
  ['POST /api/dashboard/security/two-step/enable', { body: EnableTwoStepRequestSchema }],
  ['POST /api/dashboard/security/two-step/disable', { body: ConfirmIdentityRequestSchema }],
  ['POST /api/dashboard/security/two-step/recovery-codes', { body: ConfirmIdentityRequestSchema }],
  ['POST /api/dashboard/keys', { body: CreateApiKeyRequestSchema }],
  ['POST /api/dashboard/contacts/import', { body: ImportContactsRequestSchema }],
  ['PATCH /api/dashboard/notifications', { body: UpdateNotificationSettingsRequestSchema }],
  ['POST /api/dashboard/members/invitations', { body: InviteMemberRequestSchema }],
  ['PATCH /api/dashboard/members/:userId', { body: ChangeRoleRequestSchema }],
  ['POST /api/dashboard/members/ownership', { body: TransferOwnershipRequestSchema }],
  ['POST /api/dashboard/workspaces/current', { body: SwitchWorkspaceRequestSchema }],
  ['DELETE /api/dashboard/workspaces/current', { body: DeleteWorkspaceRequestSchema }],
  ['POST /api/dashboard/join', { body: InvitationTokenSchema }],
  ['POST /api/dashboard/join/preview', { body: InvitationTokenSchema }],
  ['POST /api/dashboard/join/signin', { body: JoinSignInRequestSchema }],
  ['POST /api/dashboard/join/signup', { body: JoinSignUpRequestSchema }],
  ['POST /api/dashboard/password-reset', { body: RequestPasswordResetSchema }],
  ['POST /api/dashboard/password-reset/complete', { body: CompletePasswordResetSchema }],
  ['PATCH /api/dashboard/admin/workspaces/:id', { body: UpdateAdminWorkspaceSchema }],
  ['PATCH /api/dashboard/admin/people/:id', { body: UpdateAdminPersonSchema }],
  ['GET /api/dashboard/activity', { query: ActivityQuerySchema }],
  ['GET /api/dashboard/activity/export', { query: ActivityFilterSchema }],
  ['POST /api/dashboard/admin/invites', { body: InviteRequestSchema }],
  ['PUT /api/dashboard/vault', { body: VaultRecordRequestSchema }],
  ['PATCH /api/dashboard/vault', { body: VaultRecordRequestSchema }],
  ['POST /api/dashboard/vault/items', { body: RegisterVaultItemsRequestSchema }],
  ['DELETE /api/dashboard/vault/items', { body: DeleteVaultItemsRequestSchema }],
  ['PATCH /api/dashboard/vault/items/:id', { body: UpdateVaultItemRequestSchema }],
  ['POST /api/dashboard/vault/folders', { body: CreateVaultFolderRequestSchema }],
  ['PATCH /api/dashboard/vault/folders/:id', { body: UpdateVaultFolderRequestSchema }],
  ['DELETE /api/dashboard/vault/folders/:id', { query: DeleteVaultFolderQuerySchema }],
  ['GET /api/public/collections/:slug/files', { query: PublicCollectionFilesQuerySchema }],
  ['GET /api/public/collections/:slug/download-links', { query: PublicCollectionDownloadLinksQuerySchema }],
  ['POST /api/public/collections/:slug/unlock', { body: CollectionUnlockRequestSchema }],
  ['POST /api/public/collections/:slug/guest-sign-in', { body: GuestSignInRequestSchema }],
  ['POST /api/public/collections/:slug/guest-session', { body: GuestSessionRequestSchema }],
  ['POST /api/public/collections/:slug/files', { body: GuestUploadRequestSchema }],
  ['POST /api/public/collections/:slug/files/:fileId/comments', { body: CreateCommentRequestSchema }],
  ['PUT /api/public/collections/:slug/files/:fileId/review', { body: SetReviewRequestSchema }],
  ['POST /api/public/requests/:slug/submissions', { body: StartSubmissionRequestSchema }],
  ['POST /api/public/requests/:slug/submissions/:id/files', { body: AddSubmissionFilesRequestSchema }],
  ['POST /api/public/transfers/:slug/unlock', { body: UnlockRequestSchema }],
  ['POST /api/public/transfers/:slug/sessions', { body: CreateSessionRequestSchema }],
  ['POST /oauth/consent/:uid', { body: ConsentDecisionSchema }],
]);

/** Bodies whose validity depends on more than their schema's fields (at least one file; a scope to grant). */
const knownBodies = new Map<string, unknown>([
  ['POST /api/v1/transfers', { files: [{ name: 'probe.bin', size: 1 }] }],
  ['POST /api/v1/transfers/:id/files', { files: [{ name: 'probe.bin', size: 1 }] }],
  ['POST /api/v1/collections/:id/files', { files: [{ name: 'probe.bin', size: 1 }] }],
  ['POST /api/public/requests/:slug/submissions/:id/files', { files: [{ name: 'probe.bin', size: 1 }] }],
  ['POST /api/public/collections/:slug/files', { files: [{ name: 'probe.bin', size: 1 }] }],
  // A folder goes only with a contributor; its id is A's (filled in below).
  ['POST /api/v1/collections/:id/guests', { emails: ['probe@example.test'], role: 'contributor', uploadFolderId: 'fo_probe' }],
  ['PATCH /api/v1/collections/:id/guests/:guestId', { role: 'contributor', uploadFolderId: 'fo_probe' }],
  ['POST /oauth/consent/:uid', { approve: true, scopes: ['transfers:read'] }],
]);

/** What names A by a link rather than an id: `resolveLink` with A's locked links. */
const linkBodies = (): Map<string, unknown[]> => new Map([['POST /api/v1/links/resolve', [{ url: A.transfer.url }, { url: A.collection.url }]]]);

/**
 * The answers, to someone holding A's locked collection link, that are the same for anyone by
 * design and open nothing: asking for a guest sign-in link (mailed only to an invited address; the
 * answer never says), trading a sign-in link that is not a live one of this collection's guests
 * (410, as for a used or expired one), and signing out of a guest session (it clears only the
 * caller's own cookie).
 */
const sameForAnyone = new Map<string, number>([
  ['POST /api/public/collections/:slug/guest-sign-in', 202],
  ['POST /api/public/collections/:slug/guest-session', 410],
  ['DELETE /api/public/collections/:slug/guest-session', 204],
]);

/** Methods of the endpoints that take every method: the tus upload URL takes these. */
const wildcardMethods = new Map<string, string[]>([['/files/*', ['HEAD', 'PATCH', 'DELETE']]]);

/** Endpoints this matrix does not call, and why. */
const notCalled = new Map<string, string>([
  ['GET /*', 'the web app’s pages (no data of any workspace)'],
  ['ALL /api/*', 'the answer to unknown /api paths'],
  ['ALL /api/v1/*', 'the answer to unknown /api/v1 paths (404 whatever the credential, charged like any request)'],
  ['ALL /api/dashboard/vault/*', 'the answer to unknown vault paths (as to unknown /api paths)'],
  ['ALL /.well-known/*', 'the JSON 404 for well-known addresses nothing is served at (no data of any workspace)'],
  ['ALL /mcp', 'every MCP tool is an /api/v1 operation: the MCP matrix below calls each with A’s ids'],
]);

// ---------------------------------------------------------------------------------------------
// The cases

interface Case {
  /** `METHOD pattern`, as registered. */
  route: string;
  method: string;
  url: string;
  body?: string;
  headers: Record<string, string>;
  credential: CredentialName;
  /** Whether the request names something of A's (else it is a read of B's own). */
  crossing: boolean;
  /** Every path parameter names A's (not B's own parent with A's child). */
  allOfA: boolean;
  /** A's ids in the request, each with a ghost: an id of the same shape that names nothing. */
  ghosts: [string, string][];
}

interface Plan {
  cases: Case[];
  /** Endpoints the plan could not fill in (a parameter with no resource of A's, an unknown wildcard). */
  unfilled: string[];
  /** Writes that name nothing of A's: they act on B's own workspace only, so they are not sent. */
  ownWrites: string[];
  /** Bodies made for a request that their schema refuses (each would be a 400 that proves nothing). */
  invalidBodies: string[];
  endpoints: Endpoint[];
}

function planMatrix(): Plan {
  const app = createApp(server.services, { uploadLocker: new MemoryLocker() });
  const endpoints = registeredEndpoints(app);
  const schemas = new Map([...v1RequestSchemas(), ...otherRequestSchemas]);
  const credentials = credentialsOf(B);
  const plan: Plan = { cases: [], unfilled: [], ownWrites: [], invalidBodies: [], endpoints };
  const seen = new Set<string>();

  for (const endpoint of endpoints) {
    const route = `${endpoint.method} ${endpoint.path}`;
    if (notCalled.has(route)) continue;
    const methods = endpoint.method === 'ALL' ? wildcardMethods.get(endpoint.path) : [endpoint.method];
    if (!methods) {
      plan.unfilled.push(`${route}: takes every method; say which its resource answers`);
      continue;
    }
    const params = [...paramsOf(endpoint.path), ...(endpoint.path.endsWith('*') ? ['*'] : [])];
    const prefixes = params.map((p) => {
      const token = p === '*' ? '*' : `:${p}`;
      return endpoint.path.slice(0, endpoint.path.indexOf(token) + token.length);
    });
    const requestSchemas = schemas.get(route) ?? {};
    const refs = fieldRefs(endpoint.path);

    for (const directory of directories()) {
      const resolved = prefixes.map((prefix) => directory.get(prefix));
      if (resolved.some((r) => r === undefined)) {
        plan.unfilled.push(`${route}: no resource of A for ${prefixes[resolved.indexOf(undefined)]}`);
        break;
      }
      // All of A's; then B's own parent with A's child, at each depth; then all of B's own.
      for (let split = 0; split <= params.length; split++) {
        const ghosts: [string, string][] = [];
        const named = (ref: Ref | undefined, value: string) => {
          if (!ref?.a || value !== ref.a) return;
          if (!ref.capability && !ghosts.some(([a]) => a === value)) ghosts.push([value, ghostOf(value)]);
        };
        let crossing = false;
        let url = endpoint.path;
        params.forEach((p, i) => {
          const ref = resolved[i]!;
          const value = i >= split && ref.a !== undefined ? ref.a : ref.b;
          if (value === ref.a) crossing = true;
          named(ref, value);
          url = p === '*' ? url.replace('*', value) : url.replace(`:${p}`, encodeURIComponent(value));
        });
        const allOfA = params.length > 0 && split === 0 && resolved.every((r) => r!.a !== undefined);

        const query = new URLSearchParams();
        if (requestSchemas.query) {
          for (const [name] of fieldNamesOf(requestSchemas.query)) {
            // A search for A's label must find nothing of A's; A's page cursor must page nothing of A's.
            if (name === 'q') query.set(name, A.label);
            const cursor = name === 'cursor' ? cursorsOfA.get(route) : undefined;
            const ref = cursor ? { a: cursor, b: cursor } : typeof name === 'string' && isIdField(name) ? refs[name] : undefined;
            if (ref?.a) {
              query.set(name as string, ref.a);
              named(ref, ref.a);
              crossing = true;
            }
          }
        }

        const bodies: unknown[] = [];
        if (requestSchemas.body) {
          let body = knownBodies.has(route) ? structuredClone(knownBodies.get(route)) : exampleOf(requestSchemas.body);
          for (const path of fieldNamesOf(requestSchemas.body)) {
            const name = path[path.length - 1];
            if (typeof name !== 'string' || !isIdField(name)) continue;
            const ref = refs[name];
            if (!ref) {
              const unfilled = `${route}: no resource of A for the body field ${path.join('.')}`;
              if (!plan.unfilled.includes(unfilled)) plan.unfilled.push(unfilled);
              continue;
            }
            body = setAt(body, path, ref.many ? [ref.a] : ref.a);
            named(ref, ref.a!);
            crossing = true;
          }
          bodies.push(body);
        }
        const linkCases = split === params.length ? (linkBodies().get(route) ?? []) : [];

        const write = !['GET', 'HEAD'].includes(methods[0]!);
        for (const method of methods) {
          const variants: { body: unknown; crossing: boolean }[] = [
            ...(bodies.length ? bodies.map((body) => ({ body, crossing })) : [{ body: undefined, crossing }]),
            ...linkCases.map((body) => ({ body, crossing: true })),
          ];
          for (const v of variants) {
            if (!v.crossing && write) {
              if (!plan.ownWrites.includes(route)) plan.ownWrites.push(route);
              continue;
            }
            const parsed = v.body === undefined ? null : requestSchemas.body?.safeParse(v.body);
            if (parsed && !parsed.success) plan.invalidBodies.push(`${route}: ${JSON.stringify(v.body)}: ${parsed.error.message}`);
            const target = `${url}${query.size ? `?${query}` : ''}`;
            const bodyText = v.body === undefined ? undefined : JSON.stringify(v.body);
            const signature = `${method} ${target} ${bodyText ?? ''}`;
            if (seen.has(signature)) continue;
            seen.add(signature);
            for (const [credential, headers] of Object.entries(credentials) as [CredentialName, Record<string, string>][]) {
              plan.cases.push({
                route,
                method,
                url: target,
                body: bodyText,
                headers: { ...headers, ...(bodyText !== undefined ? { 'content-type': 'application/json' } : {}), ...surfaceHeaders(endpoint.path, method) },
                credential,
                crossing: v.crossing,
                allOfA,
                ghosts: linkCases.includes(v.body) ? [] : ghosts,
              });
            }
          }
        }
      }
    }
  }
  return plan;
}

/** An id of the same shape as `id` (its prefix kept) that names nothing. */
function ghostOf(id: string): string {
  const prefixed = /^([a-z]+_)(.+)$/.exec(id);
  return prefixed ? `${prefixed[1]}${randomBase62(prefixed[2]!.length)}` : randomBase62(id.length);
}

/** The request with each of A's ids in it replaced by its ghost. */
const withGhosts = (c: Case): Case => {
  const swap = (text: string) => c.ghosts.reduce((t, [a, ghost]) => t.split(a).join(ghost), text);
  return { ...c, url: swap(c.url), body: c.body === undefined ? undefined : swap(c.body) };
};

/** The tus endpoint reads its protocol version before anything else, and a PATCH its offset and type: sent right, so only the credential decides. */
function surfaceHeaders(path: string, method: string): Record<string, string> {
  if (path !== '/files/*') return {};
  return method === 'PATCH'
    ? { 'tus-resumable': '1.0.0', 'content-type': 'application/offset+octet-stream', 'upload-offset': String(A.draft.offset) }
    : { 'tus-resumable': '1.0.0' };
}

interface Answer {
  status: number;
  text: string;
  headerText: string;
}

async function send(c: Case): Promise<Answer> {
  const tusBytes = c.method === 'PATCH' && c.route.endsWith('/files/*') ? new Uint8Array(1024).fill(7) : undefined;
  const res = await fetch(`${server.url}${c.url}`, { method: c.method, headers: c.headers, body: tusBytes ?? c.body, redirect: 'manual' });
  return { status: res.status, text: await res.text(), headerText: JSON.stringify([...res.headers]) };
}

/** Runs `work` over `items`, a few at a time. */
async function inPool<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}

/** A's identifiers found in an answer, leaving out those the request itself carried (an echo of the URL is no leak). */
function leaked(answer: Answer, request: string): string[] {
  return A.identifiers.filter((id) => !request.includes(id) && (answer.text.includes(id) || answer.headerText.includes(id)));
}

const describeCase = (c: Case) => `${c.credential} ${c.method} ${c.url}${c.body ? ` ${c.body}` : ''}`;

// ---------------------------------------------------------------------------------------------

describe('cross-workspace isolation', () => {
  let plan: Plan;
  let snapshotBefore: Record<string, unknown>;

  beforeAll(async () => {
    await collectCursorsOfA();
    snapshotBefore = await snapshotOfA();
    plan = planMatrix();
  });

  it('covers every registered endpoint, with a resource of A for every parameter and a valid body for every write', () => {
    expect(plan.unfilled).toEqual([]);
    expect(plan.invalidBodies).toEqual([]);
    const called = new Set(plan.cases.map((c) => c.route));
    const uncovered = plan.endpoints.map((e) => `${e.method} ${e.path}`).filter((r) => !called.has(r) && !notCalled.has(r) && !plan.ownWrites.includes(r));
    expect(uncovered).toEqual([]);
  });

  it('answers B’s credentials on A’s resources with 401, 403 or 404 in the Error shape, as for ids that name nothing, and with nothing of A', async () => {
    const crossing = plan.cases.filter((c) => c.crossing);
    const answers = await inPool(crossing, 6, send);
    // The same requests with A's ids swapped for ids that name nothing: A's must not be told apart.
    const ghostAnswers = await inPool(crossing, 6, (c) => (c.ghosts.length ? send(withGhosts(c)) : Promise.resolve(null)));
    const problems: string[] = [];
    crossing.forEach((c, i) => {
      const answer = answers[i]!;
      const problem = (what: string) => problems.push(`${describeCase(c)} → ${answer.status} ${what}: ${answer.text.slice(0, 240)}`);
      const leaks = leaked(answer, `${c.url} ${c.body ?? ''} ${JSON.stringify(c.headers)}`);
      if (leaks.length) problem(`leaks ${leaks.join(', ')}`);
      const byDesign = sameForAnyone.get(c.route);
      if (byDesign !== undefined && c.url.includes(A.collection.slug)) {
        if (answer.status !== byDesign) problem(`instead of ${byDesign}`);
        return;
      }
      if (c.method !== 'HEAD' && answer.status >= 400 && !ErrorSchema.safeParse(safeJson(answer.text)).success) problem('not in the Error shape');
      // A's resource in the path, or A's locked link: refused outright. A's id beside B's own resource: as if it named nothing.
      if ((c.allOfA || c.ghosts.length === 0) && ![401, 403, 404].includes(answer.status)) problem('instead of 401, 403 or 404');
      const ghost = ghostAnswers[i];
      if (ghost) {
        const asGhost = c.ghosts.reduce((t, [a, g]) => t.split(a).join(g), answer.text);
        if (ghost.status !== answer.status || ghost.text !== asGhost) problem(`unlike ${ghost.status} for ids that name nothing (${ghost.text.slice(0, 160)})`);
      }
    });
    const routes = new Set(crossing.map((c) => c.route)).size;
    console.log(
      `isolation matrix: ${routes} operations × ${Object.keys(credentialsOf(B)).length} credentials of B = ${crossing.length} requests naming A’s resources`,
    );
    expect(problems).toEqual([]);
  }, 120_000);

  it('shows nothing of A in any read of B’s own things, with any of B’s credentials', async () => {
    const own = plan.cases.filter((c) => !c.crossing);
    const answers = await inPool(own, 6, send);
    const problems: string[] = [];
    own.forEach((c, i) => {
      const answer = answers[i]!;
      if (answer.status >= 500) problems.push(`${describeCase(c)} → ${answer.status}: ${answer.text.slice(0, 200)}`);
      const leaks = leaked(answer, `${c.url} ${c.body ?? ''}`);
      if (leaks.length) problems.push(`${describeCase(c)} → ${answer.status} leaks ${leaks.join(', ')}`);
    });
    // B's own reads did answer: the matrix is not a row of refusals.
    expect(own.filter((c, i) => c.credential === 'key' && answers[i]!.status === 200).length).toBeGreaterThan(10);
    console.log(`isolation matrix: ${own.length} reads of B’s own things checked for A’s data`);
    expect(problems).toEqual([]);
  }, 120_000);

  it('refuses every MCP tool on A’s resources with B’s key, dashboard token and OAuth token, and lists nothing of A', async () => {
    const directory = directories()[0]!;
    const problems: string[] = [];
    let calls = 0;
    for (const token of [B.key, B.dashboardToken, B.oauthToken]) {
      const client = new Client({ name: 'isolation', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: { token: async () => token } }));
      for (const tool of tools()) {
        const params = paramsOf(tool.operation.path.replace(/\{([^}]+)\}/g, ':$1'));
        if (params.length === 0) {
          // B's own lists, read through the tools, hold nothing of A either.
          if (!tool.annotations.readOnlyHint) continue;
          const text = JSON.stringify(await client.callTool({ name: tool.name, arguments: {} }));
          calls++;
          const leaks = A.identifiers.filter((id) => text.includes(id));
          if (leaks.length) problems.push(`${tool.name} leaks ${leaks.join(', ')}`);
          continue;
        }
        const pattern = `/api/v1${tool.operation.path.replace(/\{([^}]+)\}/g, ':$1')}`;
        const args: Record<string, unknown> = tool.operation.request.body
          ? ((knownBodies.get(`${tool.operation.method} ${pattern}`) as Record<string, unknown>) ??
            (exampleOf(tool.operation.request.body) as Record<string, unknown>))
          : {};
        for (const p of params) args[p] = directory.get(pattern.slice(0, pattern.indexOf(`:${p}`) + p.length + 1))!.a;
        const result = await client.callTool({ name: tool.name, arguments: args });
        calls++;
        const text = JSON.stringify(result);
        const leaks = A.identifiers.filter((id) => !JSON.stringify(args).includes(id) && text.includes(id));
        // A refused call is a tool error whose text starts with the API's code.
        const code = result.isError ? /^(\w+): /.exec((result.content as { text?: string }[])[0]?.text ?? '')?.[1] : undefined;
        if (!result.isError || !['not_found', 'unauthorized', 'forbidden', 'insufficient_scope'].includes(code ?? ''))
          problems.push(`${tool.name} ${JSON.stringify(args)} → ${text.slice(0, 200)}`);
        if (leaks.length) problems.push(`${tool.name} leaks ${leaks.join(', ')}`);
      }
      await client.close();
    }
    expect(calls).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  }, 60_000);

  it('opens nothing of A with B’s signed URL pointed at A’s file, nor with B’s upload token on A’s upload', async () => {
    const forged = forgedDownloadToken();
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(`${server.url}/dl/${forged}`, { method });
      expect(res.status).toBe(404);
    }
    // B's own link still works: the refusal is the swapped payload, not a broken link.
    expect((await fetch(B.transfer.downloadUrl.replace(publicUrl, server.url))).status).toBe(200);

    const tus = (method: string, headers: Record<string, string> = {}, body?: BodyInit) =>
      fetch(`${server.url}${A.draft.uploadPath}`, {
        method,
        headers: { 'tus-resumable': '1.0.0', 'x-service-upload-token': B.draft.uploadToken, ...headers },
        body,
      });
    expect((await tus('HEAD')).status).toBe(401);
    expect(
      (await tus('PATCH', { 'content-type': 'application/offset+octet-stream', 'upload-offset': String(A.draft.offset) }, new Uint8Array(4096).fill(1))).status,
    ).toBe(401);
    expect((await tus('DELETE')).status).toBe(401);
    // Renewing B's token gives a token for B's file only.
    const renewed = await fetch(`${server.url}/api/uploads/token`, { method: 'POST', headers: { 'x-service-upload-token': B.draft.uploadToken } });
    expect(renewed.status).toBe(200);
    const { uploadToken } = (await renewed.json()) as { uploadToken: string };
    expect((await tus('HEAD', { 'x-service-upload-token': uploadToken })).status).toBe(401);

    const head = await fetch(`${server.url}${A.draft.uploadPath}`, {
      method: 'HEAD',
      headers: { 'tus-resumable': '1.0.0', 'x-service-upload-token': A.draft.uploadToken },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(A.draft.offset));
  });

  it('leaves every resource of A as it was, its file bytes downloadable and its credentials working', async () => {
    const { apiCallsOfA: callsAfter, ...after } = await snapshotOfA();
    const { apiCallsOfA: callsBefore, ...before } = snapshotBefore;
    expect(after).toEqual(before);
    // Nor did anything of B's reach A (B's events, say, fanned out to A's webhook); the operator's list of workspaces names B by design.
    const { 'dashboard/admin/workspaces': _everyWorkspace, ...ownData } = after;
    const seen = JSON.stringify(ownData);
    expect(B.identifiers.filter((id) => seen.includes(id))).toEqual([]);
    // None of B's requests was counted as A's: only A's own snapshot reads were.
    expect(callsAfter).toBe((callsBefore as number) + snapshotCallsOf().length);
    const links = (await (await server.fetch(`/api/v1/transfers/${A.transfer.id}/download-links`, { token: A.key })).json()) as { files: { url: string }[] };
    const bytes = Buffer.from(await (await fetch(links.files[0]!.url.replace(publicUrl, server.url))).arrayBuffer());
    expect(bytes.equals(A.transfer.bytes)).toBe(true);
    for (const token of [A.key, A.dashboardToken, A.oauthToken]) expect((await server.fetch('/api/v1/me', { token })).status).toBe(200);
  });

  // After the comparison above: A's own calls here would change A's count of calls.
  it('replays nothing of A’s for B’s request with an Idempotency-Key A used', async () => {
    const body = { email: 'same-key@example.test', firstName: 'Shared' };
    const post = (token: string) =>
      server.fetch('/api/v1/contacts', { method: 'POST', token, json: body, headers: { 'Idempotency-Key': 'isolation-shared-key' } });
    const first = await post(A.key);
    expect(first.status).toBe(201);
    const aContact = ((await first.json()) as { contact: { id: string } }).contact.id;
    const replayedForA = await post(A.key);
    expect(replayedForA.headers.get('idempotent-replayed')).toBe('true');
    const forB = await post(B.key);
    expect(forB.status).toBe(201);
    expect(forB.headers.get('idempotent-replayed')).toBeNull();
    const text = await forB.text();
    expect(text).not.toContain(aContact);
    // The contact is B's own, and A's is A's alone.
    const bContact = (JSON.parse(text) as { contact: { id: string } }).contact.id;
    expect((await server.fetch(`/api/v1/contacts/${bContact}`, { token: B.key })).status).toBe(200);
    expect((await server.fetch(`/api/v1/contacts/${aContact}`, { token: B.key })).status).toBe(404);
  });
});

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** What A's owner sees of every resource, through the API and the dashboard. */
async function snapshotOfA(): Promise<Record<string, unknown>> {
  const v1 = snapshotCallsOf();
  const snapshot: Record<string, unknown> = {};
  for (const path of v1) {
    const res = await server.fetch(`/api/v1${path}`, { token: A.key });
    snapshot[path] = { status: res.status, body: safeJson(await res.text()) };
  }
  const dashboard = [
    '/session',
    '/keys',
    '/connected-apps',
    '/notifications',
    '/vault',
    '/vault/items',
    '/admin/invites',
    '/admin/workspaces',
    `/mail/${A.mailId}`,
  ];
  for (const path of dashboard) {
    const res = await server.fetch(`/api/dashboard${path}`, { headers: credentialHeaders.session(A, publicUrl) });
    snapshot[`dashboard${path}`] = { status: res.status, body: safeJson(await res.text()) ?? res.headers.get('content-length') };
  }
  // This month's API calls move with every call, A's own included: kept apart, so that their count can be checked.
  const admin = snapshot['dashboard/admin/workspaces'] as { body: { workspaces: { id: string; apiCallsThisMonth?: number }[] } };
  for (const w of admin.body.workspaces) {
    if (w.id === A.ws.id) snapshot.apiCallsOfA = w.apiCallsThisMonth;
    delete w.apiCallsThisMonth;
  }
  const head = await fetch(`${server.url}${A.draft.uploadPath}`, {
    method: 'HEAD',
    headers: { 'tus-resumable': '1.0.0', 'x-service-upload-token': A.draft.uploadToken },
  });
  snapshot.uploadOffset = head.headers.get('upload-offset');
  return snapshot;
}

/** The /api/v1 reads of A's snapshot: each counts as one of A's API calls. */
function snapshotCallsOf(): string[] {
  return [
    `/transfers/${A.transfer.id}`,
    `/transfers/${A.draft.id}`,
    `/transfers/${A.transfer.id}/downloads`,
    `/imports/${A.draft.importFileId}`,
    `/collections/${A.collection.id}`,
    `/collections/${A.collection.id}/folders`,
    `/collections/${A.collection.id}/files`,
    `/collections/${A.collection.id}/guests`,
    `/requests/${A.request.id}`,
    `/requests/${A.request.id}/submissions`,
    `/contacts/${A.contact.id}`,
    `/webhooks/${A.webhook.id}`,
    `/webhooks/${A.webhook.id}/deliveries`,
  ];
}
