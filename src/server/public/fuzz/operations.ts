import { zodToOpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { CreateCommentRequestSchema, SetReviewRequestSchema } from '../../../contract/collections.js';
import {
  AddSubmissionFilesRequestSchema,
  SUBMISSION_TOKEN_HEADER,
  StartSubmissionRequestSchema,
} from '../../../contract/public-requests.js';
import {
  COLLECTION_UNLOCK_HEADER,
  CollectionUnlockRequestSchema,
  GuestSessionRequestSchema,
  GuestUploadRequestSchema,
  GuestSignInRequestSchema,
  PublicCollectionDownloadLinksQuerySchema,
  PublicCollectionFilesQuerySchema,
} from '../../../contract/public-collections.js';
import { CreateSessionRequestSchema, UNLOCK_HEADER, UnlockRequestSchema } from '../../../contract/public.js';
import { ConfirmIdentityRequestSchema, EnableTwoStepRequestSchema, PasskeySignInRequestSchema, RegisterPasskeyRequestSchema, SecondStepRequestSchema, SingleSignOnRequirementSchema, SingleSignOnStartQuerySchema, TieSignInDomainRequestSchema } from '../../../contract/security.js';
import {
  ChangePasswordRequestSchema,
  CompletePasswordResetSchema,
  CreateApiKeyRequestSchema,
  OwnLanguageRequestSchema,
  RenameWorkspaceRequestSchema,
  TwoStepRequirementSchema,
  UpdateAdminPersonSchema,
  RequestPasswordResetSchema,
  SetupQuerySchema,
  SignInRequestSchema,
  SignUpRequestSchema,
} from '../../../contract/dashboard.js';
import type { Operation } from '../../api/v1/fuzz/cases.js';
import {
  ChangeRoleRequestSchema,
  DeleteWorkspaceRequestSchema,
  InvitationTokenSchema,
  InviteMemberRequestSchema,
  JoinSignInRequestSchema,
  JoinSignUpRequestSchema,
  SwitchWorkspaceRequestSchema,
  TransferOwnershipRequestSchema,
} from '../../../contract/members.js';

/**
 * The endpoints anyone can call without a credential, as operations for the property fuzz suite
 * (the shape cases.ts reads from the OpenAPI document), with their schemas converted from the zod
 * contract: the recipient, visitor and uploader APIs under /api/public, the dashboard's sign-up,
 * sign-in and password reset (and, called anonymously, every other dashboard route), and upload
 * token renewal. `live` names the kind of live value each path parameter takes, `credential` the
 * header a visitor holds (an unlock token, a submission token) and `valid` a body that succeeds.
 */

type ZodSchema = z.ZodType;

export interface PublicOperation extends Operation {
  /** The route as Hono names it, with its mount point: `/api/public/transfers/:slug`. */
  route: string;
  live: Record<string, string>;
  credential?: { header: string; kind: string };
  /** A body that reaches the operation's own checks (ids and secrets as `{kind}` live values). */
  valid?: Record<string, unknown>;
}

type OpenApiMeta = Record<string, unknown> & { type?: string };
const OPENAPI_KEYWORDS = ['type', 'minimum', 'maximum', 'format', 'example', 'enum'];

/**
 * JSON Schema of a zod schema's input, as the arbitraries read it, with the `.openapi()` facts put
 * back (zod's converter does not see them): a query `limit` is a decimal string to zod but an
 * integer from 1 to its maximum in the contract, as the v1 document says.
 */
export const jsonSchemaOf = (schema: ZodSchema) =>
  z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const meta = zodToOpenAPIRegistry.get(zodSchema as never) as OpenApiMeta | undefined;
      if (!meta) return;
      for (const key of OPENAPI_KEYWORDS) if (meta[key] !== undefined) (jsonSchema as Record<string, unknown>)[key] = meta[key];
      if (meta.type && meta.type !== 'string') delete jsonSchema.pattern;
    },
  });

function operation(
  method: string,
  route: string,
  options: { body?: ZodSchema; query?: ZodSchema; live?: Record<string, string>; credential?: { header: string; kind: string }; valid?: Record<string, unknown> } = {},
): PublicOperation {
  const pathParams = [...route.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const query = options.query ? (jsonSchemaOf(options.query) as { properties?: Record<string, unknown> }) : null;
  return {
    method,
    route,
    path: route.replace(/:(\w+)/g, '{$1}'),
    operationId: `${method} ${route}`,
    pathParams,
    pathParamSchemas: Object.fromEntries(pathParams.map((p) => [p, p === 'slug' ? { type: 'string', pattern: '^[0-9A-Za-z]{22}$' } : { type: 'string', pattern: '^[a-z]+_[0-9A-Za-z]{22}$' }])),
    queryParams: Object.entries(query?.properties ?? {}).map(([name, schema]) => ({ name, schema })),
    headerParams: [],
    bodySchema: options.body ? jsonSchemaOf(options.body) : null,
    live: options.live ?? {},
    credential: options.credential,
    valid: options.valid,
  };
}

const transferUnlock = { header: UNLOCK_HEADER, kind: 'transfer:unlock' };
const collectionUnlock = { header: COLLECTION_UNLOCK_HEADER, kind: 'collection:unlock' };
const submissionToken = { header: SUBMISSION_TOKEN_HEADER, kind: 'submission:token' };
const onTransfer = { slug: 'transfer:slug' };
const onCollection = { slug: 'collection:slug' };
const onRequest = { slug: 'request:slug' };

export const publicOperations: PublicOperation[] = [
  operation('GET', '/api/public/transfers/:slug', { live: onTransfer, credential: transferUnlock }),
  operation('POST', '/api/public/transfers/:slug/unlock', { live: onTransfer, body: UnlockRequestSchema, valid: { password: 'secret words' } }),
  operation('POST', '/api/public/transfers/:slug/sessions', { live: onTransfer, credential: transferUnlock, body: CreateSessionRequestSchema, valid: { recipientToken: '{transfer:recipient}' } }),

  operation('GET', '/api/public/collections/:slug', { live: onCollection, credential: collectionUnlock }),
  operation('GET', '/api/public/collections/:slug/files', { live: onCollection, credential: collectionUnlock, query: PublicCollectionFilesQuerySchema }),
  operation('GET', '/api/public/collections/:slug/download-links', { live: onCollection, credential: collectionUnlock, query: PublicCollectionDownloadLinksQuerySchema }),
  operation('POST', '/api/public/collections/:slug/unlock', { live: onCollection, body: CollectionUnlockRequestSchema, valid: { password: 'secret words' } }),
  operation('POST', '/api/public/collections/:slug/guest-sign-in', { live: onCollection, body: GuestSignInRequestSchema, valid: { email: 'fuzz-guest@example.test' } }),
  operation('POST', '/api/public/collections/:slug/guest-session', { live: onCollection, body: GuestSessionRequestSchema }),
  operation('DELETE', '/api/public/collections/:slug/guest-session', { live: onCollection }),
  operation('POST', '/api/public/collections/:slug/files', { live: onCollection, body: GuestUploadRequestSchema, valid: { files: [{ name: 'fuzz.bin', size: 1 }] } }),
  operation('GET', '/api/public/collections/:slug/files/:fileId/comments', { live: onCollection }),
  operation('POST', '/api/public/collections/:slug/files/:fileId/comments', { live: onCollection, body: CreateCommentRequestSchema, valid: { body: 'Looks good.' } }),
  operation('PUT', '/api/public/collections/:slug/files/:fileId/review', { live: onCollection, body: SetReviewRequestSchema, valid: { state: 'approved' } }),

  operation('GET', '/api/public/requests/:slug', { live: onRequest }),
  operation('POST', '/api/public/requests/:slug/submissions', {
    live: onRequest,
    body: StartSubmissionRequestSchema,
    valid: { name: 'Zoë', email: 'zoe@example.test', message: 'Here you go', files: [{ name: 'a.pdf', size: 3, mimeType: 'application/pdf', path: 'docs' }] },
  }),
  operation('POST', '/api/public/requests/:slug/submissions/:id/files', {
    live: { ...onRequest, id: 'submission:id' },
    credential: submissionToken,
    body: AddSubmissionFilesRequestSchema,
    valid: { files: [{ name: 'b.pdf', size: 3, mimeType: 'application/pdf' }] },
  }),
  operation('DELETE', '/api/public/requests/:slug/submissions/:id/files/:fileId', { live: { ...onRequest, id: 'submission:id', fileId: 'submission:file' }, credential: submissionToken }),
  operation('POST', '/api/public/requests/:slug/submissions/:id/finish', { live: { ...onRequest, id: 'submission:id' }, credential: submissionToken }),

  // Each surface's own OpenAPI document (http/surface.ts).
  operation('GET', '/api/public/openapi.json'),
  operation('GET', '/api/dashboard/openapi.json'),

  operation('POST', '/api/uploads/token', { credential: { header: 'x-service-upload-token', kind: 'upload:token' } }),
  operation('OPTIONS', '/api/uploads/token'),

  operation('GET', '/api/dashboard/setup', { query: SetupQuerySchema }),
  operation('POST', '/api/dashboard/signup', { body: SignUpRequestSchema, valid: { email: 'new-owner@example.test', password: 'correct horse battery', workspaceName: 'Fuzz Inc.' } }),
  operation('POST', '/api/dashboard/signin', { body: SignInRequestSchema, valid: { email: '{owner:email}', password: 'correct horse battery' } }),
  // Without a sign-in waiting for its second step (the challenge cookie), any code is a 401.
  operation('POST', '/api/dashboard/signin/second-step', { body: SecondStepRequestSchema }),
  // A passkey's answer without its challenge (or with a credential nobody registered) is a 400 or 401.
  operation('POST', '/api/dashboard/signin/passkey/options'),
  operation('POST', '/api/dashboard/signin/passkey', { body: PasskeySignInRequestSchema }),
  // Single sign-on: an unknown provider, or an answer without the browser's sign-in, lands back on /signin (303).
  operation('GET', '/api/dashboard/signin/providers'),
  operation('GET', '/api/dashboard/signin/sso', { query: SingleSignOnStartQuerySchema }),
  operation('GET', '/api/dashboard/signin/sso/callback'),
  operation('POST', '/api/dashboard/signout'),
  operation('POST', '/api/dashboard/password-reset', { body: RequestPasswordResetSchema, valid: { email: '{owner:email}' } }),
  operation('POST', '/api/dashboard/password-reset/complete', { body: CompletePasswordResetSchema }),
  // An invitation's link: the token in the body; a guessed or spent one is a 404 or 410.
  operation('POST', '/api/dashboard/join/preview', { body: InvitationTokenSchema }),
  operation('POST', '/api/dashboard/join/signin', { body: JoinSignInRequestSchema }),
  operation('POST', '/api/dashboard/join/signup', { body: JoinSignUpRequestSchema }),
  // Every other dashboard route needs a session: called without one (or with a forged cookie), each is a 401.
  ...(
    [
      ['GET', '/api/dashboard/session'],
      ['PUT', '/api/dashboard/language', OwnLanguageRequestSchema],
      ['PATCH', '/api/dashboard/workspace', RenameWorkspaceRequestSchema],
      ['PUT', '/api/dashboard/workspace/two-step-requirement', TwoStepRequirementSchema],
      ['GET', '/api/dashboard/workspace/single-sign-on'],
      ['POST', '/api/dashboard/workspace/single-sign-on/domains', TieSignInDomainRequestSchema],
      ['DELETE', '/api/dashboard/workspace/single-sign-on/domains/:domain'],
      ['PUT', '/api/dashboard/workspace/single-sign-on/requirement', SingleSignOnRequirementSchema],
      ['POST', '/api/dashboard/password', ChangePasswordRequestSchema],
      ['POST', '/api/dashboard/token'],
      ['GET', '/api/dashboard/keys'],
      ['POST', '/api/dashboard/keys', CreateApiKeyRequestSchema],
      ['DELETE', '/api/dashboard/keys/:id'],
      ['POST', '/api/dashboard/contacts/import'],
      ['GET', '/api/dashboard/mail'],
      ['GET', '/api/dashboard/mail/:id'],
      ['GET', '/api/dashboard/notifications'],
      ['PATCH', '/api/dashboard/notifications'],
      ['GET', '/api/dashboard/admin/workspaces'],
      ['PATCH', '/api/dashboard/admin/workspaces/:id'],
      ['GET', '/api/dashboard/admin/people'],
      ['PATCH', '/api/dashboard/admin/people/:id', UpdateAdminPersonSchema],
      ['GET', '/api/dashboard/admin/invites'],
      ['POST', '/api/dashboard/admin/invites'],
      ['DELETE', '/api/dashboard/admin/invites/:id'],
      ['GET', '/api/dashboard/vault'],
      ['GET', '/api/dashboard/vault/usage'],
      ['PUT', '/api/dashboard/vault'],
      ['PATCH', '/api/dashboard/vault'],
      ['GET', '/api/dashboard/vault/items'],
      ['POST', '/api/dashboard/vault/items'],
      ['DELETE', '/api/dashboard/vault/items'],
      ['PATCH', '/api/dashboard/vault/items/:id'],
      ['GET', '/api/dashboard/vault/items/:id/download'],
      ['POST', '/api/dashboard/vault/folders'],
      ['PATCH', '/api/dashboard/vault/folders/:id'],
      ['DELETE', '/api/dashboard/vault/folders/:id'],
      ['GET', '/api/dashboard/connected-apps'],
      ['DELETE', '/api/dashboard/connected-apps/:id'],
      ['GET', '/api/dashboard/members'],
      ['GET', '/api/dashboard/activity'],
      ['GET', '/api/dashboard/activity/export'],
      ['POST', '/api/dashboard/members/invitations', InviteMemberRequestSchema],
      ['POST', '/api/dashboard/members/invitations/:id/resend'],
      ['DELETE', '/api/dashboard/members/invitations/:id'],
      ['PATCH', '/api/dashboard/members/:userId', ChangeRoleRequestSchema],
      ['DELETE', '/api/dashboard/members/:userId'],
      ['POST', '/api/dashboard/members/ownership', TransferOwnershipRequestSchema],
      ['GET', '/api/dashboard/workspaces'],
      ['GET', '/api/dashboard/workspaces/holding/:id'],
      ['GET', '/api/dashboard/security/two-step'],
      ['POST', '/api/dashboard/security/two-step/setup'],
      ['POST', '/api/dashboard/security/two-step/enable', EnableTwoStepRequestSchema],
      ['POST', '/api/dashboard/security/two-step/disable', ConfirmIdentityRequestSchema],
      ['POST', '/api/dashboard/security/two-step/recovery-codes', ConfirmIdentityRequestSchema],
      ['GET', '/api/dashboard/security/passkeys'],
      ['POST', '/api/dashboard/security/passkeys/options'],
      ['POST', '/api/dashboard/security/passkeys', RegisterPasskeyRequestSchema],
      ['DELETE', '/api/dashboard/security/passkeys/:id'],
      ['GET', '/api/dashboard/security/sessions'],
      ['POST', '/api/dashboard/security/sessions/end-others'],
      ['DELETE', '/api/dashboard/security/sessions/:id'],
      ['POST', '/api/dashboard/workspaces/current', SwitchWorkspaceRequestSchema],
      ['DELETE', '/api/dashboard/workspaces/current', DeleteWorkspaceRequestSchema],
      ['POST', '/api/dashboard/join', InvitationTokenSchema],
    ] as [string, string, ZodSchema?][]
  ).map(([method, route, body]) => operation(method, route, { body, credential: { header: 'cookie', kind: 'session:forged' } })),
];
