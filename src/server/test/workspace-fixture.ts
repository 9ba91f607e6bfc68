import { randomBytes } from 'node:crypto';
import { CollectionResponseSchema, FolderResponseSchema, GuestListSchema } from '../../contract/collections.js';
import { ContactResponseSchema } from '../../contract/contacts.js';
import { ApiKeySchema, InviteSchema } from '../../contract/dashboard.js';
import { MemberInvitationSchema } from '../../contract/members.js';
import { ConnectedAppSchema } from '../../contract/oauth.js';
import { StartedSubmissionSchema, SUBMISSION_TOKEN_HEADER } from '../../contract/public-requests.js';
import { GuestSessionSchema } from '../../contract/public-collections.js';
import { UnlockResponseSchema, UNLOCK_HEADER } from '../../contract/public.js';
import { UploadRequestResponseSchema } from '../../contract/requests.js';
import { scopes } from '../../contract/scopes.js';
import { CreateTransferResponseSchema, DownloadLinksSchema, TransferSchema } from '../../contract/transfers.js';
import { RegisteredVaultItemsSchema, VaultFolderResponseSchema } from '../../contract/vault.js';
import { webhookEventTypes } from '../../contract/webhook-events.js';
import { WebhookDeliveryIdSchema, WebhookWithSecretSchema } from '../../contract/webhooks.js';
import { GUEST_COOKIE } from '../collections/access.js';
import { listOutbox, readOutboxMessage } from '../mail/file-mailer.js';
import { decodeQuotedPrintable } from './mail.js';
import { oauthResources, oauthScopes } from '../oauth/provider.js';
import { SESSION_COOKIE } from '../dashboard/session.js';
import { SessionListSchema } from '../../contract/security.js';
import { identityProviders, passkeys, signInDomains } from '../db/schema/index.js';
import { UPLOAD_TOKEN_HEADER } from '../uploads/tokens.js';
import { tusUpload } from './uploads.js';
import { oauthTokens } from './oauth-client.js';
import type { TestServer, TestWorkspace } from './harness.js';

/**
 * A paid workspace with one of every resource the service keeps, made through its own HTTP API as
 * an owner, an integrator, an assistant, a guest and an uploader would, and with every kind of
 * credential those people hold. Every name, title, address and file name carries the workspace's
 * label, so that anything of it turning up in another workspace's answers can be found.
 */

export interface WorkspaceFixture {
  label: string;
  ws: TestWorkspace;
  name: string;
  /** An API key with every scope, and its id. */
  key: string;
  keyId: string;
  /** The owner's dashboard session cookie value, and the short-lived dashboard bearer token minted from it. */
  session: string;
  /** That session's id, as Settings → Security names it; and a passkey of the owner's. */
  sessionId: string;
  passkeyId: string;
  /** An identity provider of the server's and an email domain the workspace tied to it (single sign-on). */
  ssoProviderId: string;
  signInDomain: string;
  dashboardToken: string;
  /** An assistant's access token (every scope, for /mcp, which /api/v1 takes too), its grant, and an authorization left waiting for consent. */
  oauthToken: string;
  grantId: string;
  pendingConsentUid: string;
  /** Sent, with a password; its one file uploaded through tus. */
  transfer: {
    id: string;
    slug: string;
    url: string;
    password: string;
    unlockToken: string;
    fileId: string;
    fileName: string;
    bytes: Buffer;
    downloadUrl: string;
  };
  /** A draft whose file's tus upload stopped part-way, and with a URL import waiting. */
  draft: { id: string; fileId: string; fileName: string; uploadToken: string; uploadPath: string; offset: number; size: number; importFileId: string };
  /** Shared with invited guests only; a folder holding one uploaded file, and a guest signed in with the mailed link. */
  collection: {
    id: string;
    slug: string;
    url: string;
    folderId: string;
    fileId: string;
    fileName: string;
    guestId: string;
    guestEmail: string;
    guestSession: string;
    /** A folder deleted into the collection's trash (restorable). */
    trashedFolderId: string;
  };
  /** Open, into the collection, with one submission still uploading (its uploader's token, its file). */
  request: { id: string; slug: string; submissionId: string; submissionToken: string; submissionFileId: string; uploaderName: string; uploaderEmail: string };
  contact: { id: string; email: string };
  /** Subscribed to every event, with a test delivery. */
  webhook: { id: string; url: string; secret: string; deliveryId: string };
  vault: { folderId: string; itemId: string };
  /** A message in the workspace's mail directory. */
  mailId: string;
  /** A sign-up invitation, when the owner is the operator of the server (the first account). */
  inviteId: string | null;
  /** An invitation into the workspace, not accepted yet. */
  memberInvitationId: string;
  /** What must never reach anyone else: every id, secret, name, address and file name above. */
  identifiers: string[];
}

async function expectStatus(res: Response, status: number, what: string): Promise<unknown> {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}: ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

const cookieValue = (res: Response, name: string) => {
  const found = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!found) throw new Error(`no ${name} cookie`);
  return found.split(';')[0]!.slice(name.length + 1);
};

const b64u = (n: number) => randomBytes(n).toString('base64url');
const vaultRecord = () => ({
  version: 1,
  kdf: { algorithm: 'argon2id', memoryKiB: 65_536, iterations: 3, parallelism: 1, salt: b64u(16) },
  wrappedMasterKey: b64u(60),
  recovery: { wrappedMasterKey: b64u(60) },
});

/** Waits for the newest mail to `to` with this tag in the workspace's mail directory, decoded. */
async function mailTo(server: TestServer, workspaceId: string, to: string, tag: string): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const [entry] = (await listOutbox(server.dataDir, workspaceId, 1000)).filter((m) => m.to === to && m.tag === tag);
    if (entry) return decodeQuotedPrintable((await readOutboxMessage(server.dataDir, workspaceId, entry.id))!.toString('utf8'));
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no ${tag} mail to ${to}`);
}

export async function seedWorkspace(server: TestServer, label: string): Promise<WorkspaceFixture> {
  const lower = label.toLowerCase();
  const publicUrl = server.services.config.PUBLIC_URL;
  const ws = await server.createWorkspace({ plan: 'paid', email: `${lower}-owner@example.test` });
  const key = await ws.createKey(scopes, `${label} integration key`);
  const v1 = (method: string, path: string, json?: unknown) => server.fetch(`/api/v1${path}`, { method, token: key, json });

  const signin = await server.fetch('/api/dashboard/signin', { method: 'POST', json: { email: ws.email, password: ws.password } });
  await expectStatus(signin.clone(), 200, 'sign in');
  const session = cookieValue(signin, SESSION_COOKIE);
  const dashboard = (method: string, path: string, json?: unknown) =>
    server.fetch(`/api/dashboard${path}`, { method, json, headers: { cookie: `${SESSION_COOKIE}=${session}`, origin: publicUrl } });

  const name = `${label} Studio ${b64u(4)}`;
  await expectStatus(await dashboard('PATCH', '/workspace', { name }), 200, 'rename workspace');
  const { accessToken: dashboardToken } = (await expectStatus(await dashboard('POST', '/token'), 200, 'dashboard token')) as { accessToken: string };
  const keys = ApiKeySchema.array().parse(((await expectStatus(await dashboard('GET', '/keys'), 200, 'keys')) as { keys: unknown }).keys);
  const keyId = keys.find((k) => k.name === `${label} integration key`)!.id;

  const oauth = await oauthTokens(publicUrl, ws, oauthScopes, oauthResources(publicUrl).mcp);
  const apps = ConnectedAppSchema.array().parse(
    ((await expectStatus(await dashboard('GET', '/connected-apps'), 200, 'connected apps')) as { apps: unknown }).apps,
  );
  const grantId = apps[0]!.id;

  // A sent transfer with a password; its file's bytes through tus.
  const transferBytes = randomBytes(20_000);
  const transferFileName = `${lower}-quarterly-figures.bin`;
  const transferPassword = `${lower}-secret-password`;
  const created = CreateTransferResponseSchema.parse(
    await expectStatus(
      await v1('POST', '/transfers', {
        title: `${label} quarterly figures`,
        message: `${label} private note`,
        files: [{ name: transferFileName, size: transferBytes.length }],
        password: transferPassword,
      }),
      201,
      'create transfer',
    ),
  );
  await tusUpload(transferBytes, { endpoint: `${server.url}/files/`, token: created.files[0]!.uploadToken });
  await expectStatus(await v1('POST', `/transfers/${created.id}/finalize`), 200, 'finalize');
  const sent = TransferSchema.parse(await expectStatus(await v1('GET', `/transfers/${created.id}`), 200, 'get transfer'));
  const links = DownloadLinksSchema.parse(await expectStatus(await v1('GET', `/transfers/${created.id}/download-links`), 200, 'download links'));
  const unlocked = UnlockResponseSchema.parse(
    await expectStatus(
      await server.fetch(`/api/public/transfers/${sent.slug}/unlock`, { method: 'POST', json: { password: transferPassword } }),
      200,
      'unlock',
    ),
  );

  // A draft whose upload stopped after its first chunk.
  const chunk = 64 * 1024;
  const draftFileName = `${lower}-unfinished-draft.bin`;
  const draft = CreateTransferResponseSchema.parse(
    await expectStatus(
      await v1('POST', '/transfers', {
        title: `${label} draft in progress`,
        files: [{ name: draftFileName, size: 3 * chunk }],
        // Nothing listens there, and no worker runs: the import stays `importing`.
        imports: [{ url: `http://127.0.0.1:9/${lower}-import.bin`, name: `${lower}-imported-report.bin`, size: 1000 }],
      }),
      201,
      'create draft',
    ),
  );
  const draftTarget = draft.files[0]!;
  const partial = await tusUpload(randomBytes(3 * chunk), {
    endpoint: `${server.url}/files/`,
    token: draftTarget.uploadToken,
    chunkSize: chunk,
    stopAfterChunk: () => true,
  });
  if (!partial.stopped) throw new Error('the draft upload was meant to stop part-way');

  // A collection for invited guests only, with a folder, a file in it and a signed-in guest.
  const collection = CollectionResponseSchema.parse(
    await expectStatus(
      await v1('POST', '/collections', { title: `${label} lookbook`, description: `${label} collection notes`, visibility: 'private' }),
      201,
      'create collection',
    ),
  ).collection;
  const folder = FolderResponseSchema.parse(
    await expectStatus(await v1('POST', `/collections/${collection.id}/folders`, { name: `${label} fittings` }), 201, 'create folder'),
  ).folder;
  const collectionFileName = `${lower}-fitting-photo.bin`;
  const added = CreateTransferResponseSchema.pick({ files: true }).parse(
    await expectStatus(
      await v1('POST', `/collections/${collection.id}/files`, { files: [{ name: collectionFileName, size: 5000 }], folderId: folder.id }),
      201,
      'add collection file',
    ),
  );
  await tusUpload(randomBytes(5000), { endpoint: `${server.url}/files/`, token: added.files[0]!.uploadToken });
  const trashed = FolderResponseSchema.parse(
    await expectStatus(await v1('POST', `/collections/${collection.id}/folders`, { name: `${label} rejects` }), 201, 'create folder to trash'),
  ).folder;
  await expectStatus(await v1('DELETE', `/collections/${collection.id}/folders/${trashed.id}`), 200, 'trash folder');
  const guestEmail = `${lower}-guest@example.test`;
  await expectStatus(await v1('POST', `/collections/${collection.id}/guests`, { emails: [guestEmail] }), 200, 'invite guest');
  const guestId = GuestListSchema.parse(await expectStatus(await v1('GET', `/collections/${collection.id}/guests`), 200, 'guests')).guests[0]!.id;
  await expectStatus(
    await server.fetch(`/api/public/collections/${collection.slug}/guest-sign-in`, { method: 'POST', json: { email: guestEmail } }),
    202,
    'guest sign-in',
  );
  const signInMail = await mailTo(server, ws.id, guestEmail, 'collection.guest_sign_in');
  const signInToken = new RegExp(`/c/${collection.slug}\\?guest=([0-9A-Za-z]+)`).exec(signInMail)?.[1];
  if (!signInToken) throw new Error('no sign-in link in the guest mail');
  const guestSignedIn = await server.fetch(`/api/public/collections/${collection.slug}/guest-session`, { method: 'POST', json: { token: signInToken } });
  GuestSessionSchema.parse(await expectStatus(guestSignedIn.clone(), 200, 'guest session'));
  const guestSession = cookieValue(guestSignedIn, GUEST_COOKIE);

  // An upload request into the collection, and an uploader's submission still uploading.
  const request = UploadRequestResponseSchema.parse(
    await expectStatus(
      await v1('POST', '/requests', { title: `${label} submissions wanted`, message: `${label} request message`, collectionId: collection.id }),
      201,
      'create request',
    ),
  ).request;
  const requestSlug = new URL(request.url).pathname.replace(/^\/r\//, '');
  const uploaderName = `${label} Uploader`;
  const uploaderEmail = `${lower}-uploader@example.test`;
  const started = StartedSubmissionSchema.parse(
    await expectStatus(
      await server.fetch(`/api/public/requests/${requestSlug}/submissions`, {
        method: 'POST',
        json: { name: uploaderName, email: uploaderEmail, files: [{ name: `${lower}-submitted-scan.bin`, size: 4000 }] },
      }),
      201,
      'start submission',
    ),
  );

  const contactEmail = `${lower}-contact@example.test`;
  const contact = ContactResponseSchema.parse(
    await expectStatus(
      await v1('POST', '/contacts', { email: contactEmail, firstName: `${label}first`, lastName: `${label}last`, company: `${label} Corp` }),
      201,
      'create contact',
    ),
  ).contact;

  const webhookUrl = `http://127.0.0.1:9/${lower}-hook`;
  const webhook = WebhookWithSecretSchema.parse(
    await expectStatus(await v1('POST', '/webhooks', { url: webhookUrl, events: [...webhookEventTypes], description: `${label} hook` }), 201, 'create webhook'),
  );
  const deliveryId = WebhookDeliveryIdSchema.parse(
    await expectStatus(await v1('POST', `/webhooks/${webhook.webhook.id}/test`), 202, 'test webhook'),
  ).deliveryId;

  await expectStatus(await dashboard('PUT', '/vault', { record: vaultRecord() }), 201, 'create vault');
  const vaultFolder = VaultFolderResponseSchema.parse(
    await expectStatus(await dashboard('POST', '/vault/folders', { sealedName: b64u(40) }), 201, 'vault folder'),
  ).folder;
  const vaultItems = RegisteredVaultItemsSchema.parse(
    await expectStatus(
      await dashboard('POST', '/vault/items', { items: [{ size: 100, sealedMeta: b64u(60), wrappedKey: b64u(60), folderId: vaultFolder.id }] }),
      201,
      'vault item',
    ),
  );

  const me = (await expectStatus(await dashboard('GET', '/session'), 200, 'session')) as { user: { id: string; isOperator: boolean } };
  const { sessions } = SessionListSchema.parse(await expectStatus(await dashboard('GET', '/security/sessions'), 200, 'sessions'));
  const sessionId = sessions.find((s) => s.current)!.id;
  // A passkey's row as registering one leaves it (a real one is made in Chromium: e2e/passkeys.spec.ts).
  const passkeyId = `pk_${lower}${Date.now()}`;
  await server.services.db.insert(passkeys).values({ id: passkeyId, userId: ws.userId, credentialId: `cred-${passkeyId}`, publicKey: 'AAAA', name: `${name} laptop`, createdAt: server.clock.now() });
  // Rows as `sso add` and tying a domain leave them (the sign-in itself runs against a real provider: auth/single-sign-on.test.ts).
  // The provider is the server's (every workspace's sign-in page lists it): one, named after no workspace.
  const ssoProviderId = 'idp_shared_by_fixtures';
  const signInDomain = `${lower}${Date.now()}.example.test`;
  await server.services.db
    .insert(identityProviders)
    .values({ id: ssoProviderId, name: 'Company Login', issuer: 'https://login.example.test', clientId: 'parcel', clientSecretSealed: 'sealed', createdAt: server.clock.now() })
    .onConflictDoNothing();
  await server.services.db.insert(signInDomains).values({ domain: signInDomain, workspaceId: ws.id, providerId: ssoProviderId, createdAt: server.clock.now() });
  const invite = me.user.isOperator
    ? InviteSchema.parse(
        ((await expectStatus(await dashboard('POST', '/admin/invites', { email: `${lower}-invitee@example.test` }), 201, 'invite')) as { invite: unknown })
          .invite,
      )
    : null;
  const memberInvitation = MemberInvitationSchema.parse(
    await expectStatus(await dashboard('POST', '/members/invitations', { email: `${lower}-teammate@example.test`, role: 'member' }), 201, 'member invitation'),
  );
  const [mail] = await listOutbox(server.dataDir, ws.id, 1000);
  if (!mail) throw new Error('no mail kept for the workspace');

  const fixture: Omit<WorkspaceFixture, 'identifiers'> = {
    label,
    ws,
    name,
    key,
    keyId,
    session,
    sessionId,
    passkeyId,
    ssoProviderId,
    signInDomain,
    dashboardToken,
    oauthToken: oauth.accessToken,
    grantId,
    pendingConsentUid: oauth.pendingConsent.split('/').pop()!,
    transfer: {
      id: sent.id,
      slug: sent.slug,
      url: sent.url,
      password: transferPassword,
      unlockToken: unlocked.unlockToken,
      fileId: created.files[0]!.id,
      fileName: transferFileName,
      bytes: transferBytes,
      downloadUrl: links.files[0]!.url,
    },
    draft: {
      id: draft.id,
      fileId: draftTarget.id,
      fileName: draftFileName,
      uploadToken: draftTarget.uploadToken,
      uploadPath: new URL(partial.url, server.url).pathname,
      offset: chunk,
      size: 3 * chunk,
      importFileId: draft.imports[0]!.fileId,
    },
    collection: {
      id: collection.id,
      slug: collection.slug,
      url: `${publicUrl}/c/${collection.slug}`,
      folderId: folder.id,
      fileId: added.files[0]!.id,
      fileName: collectionFileName,
      guestId,
      guestEmail,
      guestSession,
      trashedFolderId: trashed.id,
    },
    request: {
      id: request.id,
      slug: requestSlug,
      submissionId: started.submission.id,
      submissionToken: started.submission.token,
      submissionFileId: started.files[0]!.id,
      uploaderName,
      uploaderEmail,
    },
    contact: { id: contact.id, email: contactEmail },
    webhook: { id: webhook.webhook.id, url: webhookUrl, secret: webhook.secret, deliveryId },
    vault: { folderId: vaultFolder.id, itemId: vaultItems.files[0]!.id },
    mailId: mail.id,
    inviteId: invite?.id ?? null,
    memberInvitationId: memberInvitation.id,
  };
  return { ...fixture, identifiers: identifiersOf(fixture, me.user.id) };
}

/** Everything of the fixture that identifies it: ids, secrets, and every string made with its label. */
function identifiersOf(f: Omit<WorkspaceFixture, 'identifiers'>, userId: string): string[] {
  const found = new Set<string>([f.ws.id, userId, f.ws.email]);
  const walk = (value: unknown) => {
    if (typeof value === 'string' && value.length >= 8) found.add(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object' && !Buffer.isBuffer(value)) Object.values(value).forEach(walk);
  };
  const { ws: _ws, label: _label, ssoProviderId: _serverWide, ...rest } = f;
  walk(rest);
  // Labelled text made on the server's side too (the workspace's own label prefixes every name).
  found.add(`${f.label} quarterly figures`);
  found.add(`${f.label} lookbook`);
  return [...found];
}

/** How a visitor of the fixture's public pages presents what they hold. */
export const credentialHeaders = {
  session: (f: WorkspaceFixture, origin: string) => ({ cookie: `${SESSION_COOKIE}=${f.session}`, origin }),
  guest: (f: WorkspaceFixture) => ({ cookie: `${GUEST_COOKIE}=${f.collection.guestSession}` }),
  uploader: (f: WorkspaceFixture) => ({ [SUBMISSION_TOKEN_HEADER]: f.request.submissionToken }),
  uploadToken: (f: WorkspaceFixture) => ({ [UPLOAD_TOKEN_HEADER]: f.draft.uploadToken }),
  unlockToken: (f: WorkspaceFixture) => ({ [UNLOCK_HEADER]: f.transfer.unlockToken }),
};
