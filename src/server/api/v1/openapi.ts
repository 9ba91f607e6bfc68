import { errorCodes, errorStatus } from '../../../contract/errors.js';
import { scopeDescriptions } from '../../../contract/scopes.js';

const description = `
The public API of a self-hostable file-transfer service: transfers, collections, upload requests, contacts, webhooks, downloads and the account.

## Authentication
Every operation takes \`Authorization: Bearer <API key or OAuth access token>\`. A missing, malformed, unknown, revoked or expired credential answers \`401 unauthorized\`, identically in every case, with \`WWW-Authenticate: Bearer realm="api", resource_metadata="<server>/.well-known/oauth-protected-resource/api/v1"\`: that RFC 9728 document names this API as its resource (\`<server>/api/v1\`) and the OAuth authorization server (RFC 8414 metadata at \`<server>/.well-known/oauth-authorization-server\`) where an app gets a token for it, with the signed-in owner's consent (authorization code with PKCE, \`resource\` required). AI assistants reach the same operations as MCP tools at \`/mcp\`, with a token issued for that resource (docs/mcp.md). A credential with no scopes is refused everywhere. Scopes: ${Object.entries(scopeDescriptions)
  .map(([s, d]) => `\`${s}\` (${d})`)
  .join('; ')}. A \`:write\` scope includes \`:read\` of the same resource; scopes never cross resources. A missing scope answers \`403 insufficient_scope\` with \`details.required\` and \`details.granted\`.

## Plans
The plan is checked live on every request. Operations marked \`x-plan: paid\` answer \`402 upgrade_required\` on the free plan, including from the first request after a paid plan lapses. The first workspace of a server (its operator's) starts on the paid plan with no end date. A server that bills nobody (its operator set \`BILLING=off\`; \`GET /me\` reports \`plan.billing\` \`off\`) gives every workspace the paid plan: no operation answers \`402\` there, neither \`upgrade_required\` nor \`out_of_credit\`.

## Errors
Every 4xx and 5xx response has the body \`{ "error": { "code", "message", "details", "docs" } }\`. Codes: ${errorCodes.map((c) => `\`${c}\` (${errorStatus[c]})`).join(', ')}. Validation errors carry \`details.fields\`, a list of \`{ path, message }\` naming each offending field. Our choices where the specification leaves them open: \`password_required\` and \`wrong_password\` are both 401 (the link needs a credential, and the one given is not it).

## Rate limits
Requests without a valid credential: 60 a minute per address. With a valid credential: per key per minute and per workspace per day (configurable by the operator; \`GET /me\` reports the numbers), and on the free plan 50,000 calls a month. The monthly allowance (and \`usage.apiCalls\` on \`GET /me\`) counts calls made with API keys and OAuth tokens only: the dashboard's own short-lived tokens (\`key.via\` \`session\`) are charged the minute and day limits but never the month, and their responses carry no \`workspace-month\` entry. Every response past authentication carries \`RateLimit-Policy\` and \`RateLimit\` (IETF draft fields) with one entry per bucket charged (\`key-minute\`, \`workspace-day\`, \`workspace-month\`). A path under \`/api/v1\` that is no operation answers \`404 not_found\` whatever the credential, charged and labelled the same way (without a valid credential, against the address: \`anonymous-minute\`). A \`429 rate_limited\` carries \`Retry-After\` in seconds.

## Idempotency
Every \`POST\` accepts \`Idempotency-Key\` (1 to 255 printable ASCII characters, no spaces). Keys are remembered 24 hours per workspace, bound to method, path and exact body. A repeat of a success replays the original response with \`Idempotent-Replayed: true\`; a repeat while the first runs answers \`409 conflict\` with \`details.reason\` \`idempotency_in_progress\` and \`Retry-After: 1\`; the same key with another method, path or body answers \`409 conflict\` with \`details.reason\` \`idempotency_key_reused\`. Failures are not remembered.

## Pagination
Paginated lists take \`limit\` and \`cursor\` and return \`nextCursor\` (null on the last page). Cursors are opaque and signed: a cursor from another list or workspace, or one the service did not issue, answers \`400 invalid_request\`. Order is stable under concurrent inserts.

## Versioning
v1 changes additively only. No v1 operation is deprecated.
`.trim();

export function openApiDocumentConfig(publicUrl: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Parcel API',
      version: '1.0.0',
      description,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: `${publicUrl}/api/v1`, description: 'This server' }],
    tags: [
      { name: 'Account', description: 'The credential, its workspace, plan, usage and referral data.' },
      {
        name: 'Transfers',
        description:
          'Create a draft with its files, stream the bytes to the tus endpoint with each file\'s upload token, finalize to send, and follow downloads. Bytes never pass through this API.',
      },
      {
        name: 'Collections',
        description:
          'Named sets of files with folders, guests and a visibility (`private`, `public`, `password`). Paid plan, except reading collection download links. Files arrive by the same tus uploads and URL imports as transfers.',
      },
      {
        name: 'Upload requests',
        description:
          'Public upload pages that put what people send into a collection (a folder per submission). Reading them is allowed on the free plan; creating, pausing and closing them needs a paid plan.',
      },
      { name: 'Contacts', description: 'The workspace address book: one contact per email address.' },
      {
        name: 'Links',
        description:
          'Links shared with you: a transfer or collection link of this service, from any workspace, turned into signed download URLs as its page would give them.',
      },
      {
        name: 'Webhooks',
        description:
          'Push endpoints receive each subscribed event as a signed POST (headers `Service-Event-Id`, `Service-Event-Type`, `Service-Delivery-Id`, `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`). Any 2xx within 10 seconds is success; anything else, a redirect (never followed) or no complete answer in 10 seconds is a failure, retried after 1, 5 and 30 minutes, then 2, 6, 12 and 24 hours (eight attempts). Five deliveries in a row that use up every retry pause the endpoint and email the owner once. Delivery is at least once: deduplicate on the event `id`; order by `createdAt`. Pull endpoints (`url` null, `mode` `pull`) keep events 30 days for `GET /webhooks/{id}/events`.',
      },
      {
        name: 'Webhook events',
        description:
          'What the service sends to a push endpoint (and keeps for a pull endpoint): one entry per event type, with its headers and body. Every body is the envelope `{ id, type, createdAt, data }`.',
      },
    ],
  };
}
