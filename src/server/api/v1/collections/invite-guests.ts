import type { OpenAPIHono } from '@hono/zod-openapi';
import { CollectionIdParamSchema, InviteGuestsRequestSchema, InvitedGuestsSchema } from '../../../../contract/collections.js';
import { inviteGuests } from '../../../collections/guests.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';
import { GUESTS, NOT_FOUND } from './guest-docs.js';

export const inviteCollectionGuestsRoute = v1Route({
  method: 'post',
  path: '/collections/{id}/guests',
  operationId: 'inviteCollectionGuests',
  tags: ['Collections'],
  summary: 'Invite guests to a collection',
  description: [
    `Invites 1 to 25 addresses; each is mailed an invite naming the workspace and the collection, with the collection’s secret link and a note that they sign in with that address. The answer lists the addresses lower-cased and deduplicated, in the order given. An address invited before stays invited (its \`invitedAt\` is that of the first invitation) and is mailed again. A mail that cannot be delivered does not fail the request: the guest can ask for a sign-in link on the collection’s page at any time. Invalid addresses are \`400\` naming \`emails.N\`. Our addition: \`role\` \`contributor\` lets the guests also upload, into \`uploadFolderId\` and what is under it (a folder of another collection is \`400\` naming it), or anywhere when it is null; the default is \`viewer\`. An address invited again takes the role given now.`,
    `${GUESTS} ${NOT_FOUND} The body, the answer and the mails are the spec’s; the rest is our design.`,
  ].join('\n\n'),
  scope: 'collections:write',
  paidOnly: true,
  request: { params: CollectionIdParamSchema, ...jsonBody(InviteGuestsRequestSchema) },
  responses: { 200: json(InvitedGuestsSchema, 'The addresses invited') },
});

export function registerInviteCollectionGuests(app: OpenAPIHono<AppEnv>) {
  app.openapi(inviteCollectionGuestsRoute, async (c) => {
    const { emails, role, uploadFolderId, language } = c.req.valid('json');
    return c.json(await inviteGuests(c.var.services, c.var.caller, c.req.valid('param').id, emails, { role, uploadFolderId }, language), 200);
  });
}
