import { scopes } from '../../../../contract/scopes.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';

/**
 * The world the v1 fuzz suites request into: a test server that reaches no network, a paid
 * workspace with a key of every scope, and one real resource of each kind, so that a request that is
 * valid (or nearly) reaches the code behind the id check rather than a 404. Shared by the
 * deterministic suite (fuzz.test.ts) and the property suite (property.test.ts).
 */

export const PUBLIC_URL = 'http://127.0.0.1';

export const OWNER_PASSWORD = 'correct horse battery';

export type ResourceKind = 'transfer' | 'file' | 'webhook' | 'delivery' | 'contact' | 'collection' | 'folder' | 'collectionFile' | 'guest' | 'request';
export type ResourceIds = Record<ResourceKind, string>;

/** A test server whose outbound requests fail as if no name resolved, with limits no fuzz run reaches. */
export async function startFuzzServer(env: Record<string, string> = {}, logLines?: string[]): Promise<TestServer> {
  const refuse = async () => {
    throw Object.assign(new Error('fuzz: no outbound network'), { code: 'ENOTFOUND' });
  };
  return startTestServer(
    {
      RATE_LIMIT_KEY_PER_MINUTE: '100000000',
      RATE_LIMIT_WORKSPACE_PER_DAY: '100000000',
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000000',
      RATE_LIMIT_SUBMISSIONS_PER_HOUR: '100000000',
      SIGNIN_ATTEMPTS_PER_15_MINUTES: '100000000',
      ...env,
    },
    { outbound: { lookup: refuse, connect: refuse }, logLines },
  );
}

/** A paid workspace with a key of every scope and one live resource of each kind (`ids`), renewed by `refresh`. */
export class FuzzWorkspace {
  readonly ids: ResourceIds = { transfer: '', file: '', webhook: '', delivery: '', contact: '', collection: '', folder: '', collectionFile: '', guest: '', request: '' };
  private contacts = 0;
  private folders = 0;

  private constructor(
    readonly server: TestServer,
    readonly key: string,
    readonly workspaceId: string,
    /** The owner's email; the password is OWNER_PASSWORD. */
    readonly ownerEmail: string,
  ) {}

  static async create(server: TestServer): Promise<FuzzWorkspace> {
    const ws = await server.createWorkspace({ plan: 'paid', password: OWNER_PASSWORD });
    const workspace = new FuzzWorkspace(server, await ws.createKey(scopes), ws.id, ws.email);
    await workspace.refresh();
    return workspace;
  }

  /** A v1 call that must succeed (setup, not the thing tested). */
  async call(method: string, path: string, json?: unknown) {
    const res = await this.server.fetch(`/api/v1${path}`, { method, token: this.key, json });
    const body = (await res.json().catch(() => null)) as Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any
    if (!res.ok) throw new Error(`fuzz setup: ${method} ${path} answered ${res.status} ${JSON.stringify(body)}`);
    return body!;
  }

  /**
   * Real resources for the path ids of the valid variants: all of them, or the one a request used
   * up and those that hang off it (a collection's folder, file, guest and upload request).
   */
  async refresh(usedUp?: ResourceKind) {
    const dependents: Record<ResourceKind, ResourceKind[]> = {
      transfer: ['transfer', 'file'],
      file: ['transfer', 'file'],
      webhook: ['webhook', 'delivery'],
      delivery: ['webhook', 'delivery'],
      contact: ['contact'],
      collection: ['collection', 'folder', 'collectionFile', 'guest', 'request'],
      folder: ['folder', 'request'],
      collectionFile: ['collectionFile'],
      guest: ['guest'],
      request: ['request'],
    };
    const renew = new Set<ResourceKind>(usedUp ? dependents[usedUp] : (Object.keys(this.ids) as ResourceKind[]));
    const { ids } = this;
    if (renew.has('webhook')) {
      const { webhooks } = await this.call('GET', '/webhooks');
      for (const w of webhooks as { id: string }[]) await this.call('DELETE', `/webhooks/${w.id}`);
      ids.webhook = (await this.call('POST', '/webhooks', { url: null, events: ['transfer.ready'], description: 'fuzz' })).webhook.id;
    }
    if (renew.has('transfer')) {
      const draft = await this.call('POST', '/transfers', { title: 'Fuzz', files: [{ name: 'a.txt', size: 3 }] });
      ids.transfer = draft.id;
      ids.file = draft.files[0].id;
    }
    if (renew.has('delivery')) ids.delivery = (await this.call('POST', `/webhooks/${ids.webhook}/test`)).deliveryId;
    if (renew.has('contact')) ids.contact = (await this.call('POST', '/contacts', { email: `fuzz${++this.contacts}@example.test` })).contact.id;
    if (renew.has('collection')) ids.collection = (await this.call('POST', '/collections', { title: 'Fuzz' })).collection.id;
    if (renew.has('folder')) ids.folder = (await this.call('POST', `/collections/${ids.collection}/folders`, { name: `Fuzz ${++this.folders}` })).folder.id;
    if (renew.has('collectionFile')) {
      ids.collectionFile = (await this.call('POST', `/collections/${ids.collection}/files`, { files: [{ name: 'c.txt', size: 3 }] })).files[0].id;
    }
    if (renew.has('guest')) {
      await this.call('POST', `/collections/${ids.collection}/guests`, { emails: ['fuzz-guest@example.test'] });
      ids.guest = (await this.call('GET', `/collections/${ids.collection}/guests`)).guests[0].id;
    }
    if (renew.has('request')) ids.request = (await this.call('POST', '/requests', { title: 'Fuzz', collectionId: ids.collection, folderId: ids.folder })).request.id;
  }

  /** The kind of resource a path parameter names: `{fileId}` of a collection is a collection file. */
  static kindOf(path: string, param: string): ResourceKind | null {
    const resource = path.split('/')[1];
    if (param === 'fileId') return resource === 'collections' ? 'collectionFile' : 'file';
    if (param === 'deliveryId') return 'delivery';
    if (param === 'folderId') return 'folder';
    if (param === 'guestId') return 'guest';
    const byResource: Record<string, ResourceKind> = { transfers: 'transfer', webhooks: 'webhook', contacts: 'contact', collections: 'collection', requests: 'request' };
    return byResource[resource ?? ''] ?? null;
  }

  realId(path: string, param: string): string {
    const kind = FuzzWorkspace.kindOf(path, param);
    return kind ? this.ids[kind] : 'unknown';
  }
}

/**
 * The resource a successful request of this operation used up (deleted, revoked, finalized, or one
 * webhook too many), which later requests need renewed; null when it used up nothing.
 */
export function usedUpBy(c: { method: string; path: string; operationId: string }): ResourceKind | null {
  if (c.operationId === 'createWebhook') return 'webhook';
  if (/\/(revoke|finalize)$/.test(c.path)) return 'transfer';
  if (c.method !== 'DELETE') return null;
  if (/^\/collections\/\{id\}\/files$/.test(c.path)) return 'collectionFile';
  const last = [...c.path.matchAll(/\{(\w+)\}/g)].pop()?.[1];
  return last ? FuzzWorkspace.kindOf(c.path, last) : null;
}

/**
 * Bodies that are valid for reasons beyond their schema, so that a fuzz run starts from a request
 * that succeeds and each broken field is what gets refused. `ids` are the resources they refer to
 * (real ids, or placeholders that the sender replaces).
 */
export function validBodies<Id>(ids: Record<'collection' | 'folder' | 'collectionFile', Id>): Record<string, unknown> {
  return {
    createTransfer: { title: 'Fuzz', files: [{ name: 'a.txt', size: 3, mimeType: 'text/plain', path: 'docs' }], recipients: ['someone@example.test'], password: 'secret words' },
    updateTransfer: { title: 'Renamed', message: 'Hello', maxDownloads: 5 },
    addTransferFiles: { files: [{ name: 'b.txt', size: 3 }] },
    createWebhook: { url: null, events: ['transfer.ready'], description: 'fuzz' },
    updateWebhook: { description: 'changed', events: ['transfer.ready', 'transfer.expired'] },
    createCollection: { title: 'Fuzz', description: 'Fuzzed', visibility: 'password', password: 'secret words' },
    updateCollection: { title: 'Renamed', description: 'Changed', visibility: 'password', password: 'other words' },
    createCollectionFolder: { name: 'Fuzz inner', parentId: null },
    updateCollectionFolder: { name: 'Fuzz renamed', parentId: null },
    addCollectionFiles: { files: [{ name: 'b.txt', size: 3, path: 'docs/2026' }], folderId: null },
    updateCollectionFile: { name: 'renamed.txt', folderId: null },
    deleteCollectionFiles: { fileIds: [ids.collectionFile || 'fi_1'] },
    replaceContact: { email: 'replaced@example.test', firstName: 'Ada', lastName: 'Lovelace', company: 'Engines', phone: '+44 1', type: 'person' },
    // A link of this service (PUBLIC_URL) naming no transfer: 404, so each broken field is what gets refused.
    resolveLink: { url: `${PUBLIC_URL}/t/NoSuchSlug0000000000000`, password: 'secret words' },
    // An upload request goes into a real collection and folder.
    createUploadRequest: {
      title: 'Fuzz',
      message: 'Send us your files',
      collectionId: ids.collection,
      folderId: ids.folder,
      status: 'open',
      deadline: '2026-12-31T23:59:59Z',
      maxFiles: 10,
      maxBytes: 1_000_000,
      allowedTypes: ['image/*', 'application/pdf'],
      requireEmail: true,
    },
    updateUploadRequest: {
      title: 'Renamed',
      message: 'Changed',
      collectionId: ids.collection,
      folderId: ids.folder,
      status: 'paused',
      deadline: '2026-12-31T23:59:59Z',
      maxFiles: 5,
      maxBytes: 500_000,
      allowedTypes: ['text/plain'],
      requireEmail: false,
    },
  };
}
