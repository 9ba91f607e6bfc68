import type { OpenAPIHono } from '@hono/zod-openapi';
import {
  CollectionDeletedSchema,
  CollectionIdParamSchema,
  GuestIdParamSchema,
  GuestListSchema,
  InviteGuestsRequestSchema,
  InvitedGuestsSchema,
} from '../../../../contract/collections.js';
import { inviteGuests, listGuests, removeGuest } from '../../../collections/guests.js';
import type { AppEnv } from '../../../http/env.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';

const GUESTS =
  'Guests are people invited to one collection by address: not members of the workspace, and they see only that collection. A guest signs in on the collection’s page with a one-time link mailed to their address (valid 15 minutes, used once), which gives them a session for that collection alone; they keep access whatever the visibility, for as long as they stay invited.';
const NOT_FOUND = "Another workspace's collection, or a guest of another collection, answers `404 not_found`.";

const list = v1Route({
  method: 'get',
  path: '/collections/{id}/guests',
  operationId: 'listCollectionGuests',
  tags: ['Collections'],
  summary: 'List the guests of a collection',
  description: `Every guest of the collection in one response, in the order they were invited (\`invitedAt\`; addresses invited together in alphabetical order), with when each last visited (\`lastVisitAt\`, null before their first sign-in; updated at most once a minute). ${GUESTS} ${NOT_FOUND} Our design: the spec does not show this operation.`,
  scope: 'collections:read',
  paidOnly: true,
  request: { params: CollectionIdParamSchema },
  responses: { 200: json(GuestListSchema, 'The guests') },
});

const invite = v1Route({
  method: 'post',
  path: '/collections/{id}/guests',
  operationId: 'inviteCollectionGuests',
  tags: ['Collections'],
  summary: 'Invite guests to a collection',
  description: [
    `Invites 1 to 25 addresses; each is mailed an invite naming the workspace and the collection, with the collection’s secret link and a note that they sign in with that address. The answer lists the addresses lower-cased and deduplicated, in the order given. An address invited before stays invited (its \`invitedAt\` is that of the first invitation) and is mailed again. A mail that cannot be delivered does not fail the request: the guest can ask for a sign-in link on the collection’s page at any time. Invalid addresses are \`400\` naming \`emails.N\`.`,
    `${GUESTS} ${NOT_FOUND} The body, the answer and the mails are the spec’s; the rest is our design.`,
  ].join('\n\n'),
  scope: 'collections:write',
  paidOnly: true,
  request: { params: CollectionIdParamSchema, ...jsonBody(InviteGuestsRequestSchema) },
  responses: { 200: json(InvitedGuestsSchema, 'The addresses invited') },
});

const remove = v1Route({
  method: 'delete',
  path: '/collections/{id}/guests/{guestId}',
  operationId: 'removeCollectionGuest',
  tags: ['Collections'],
  summary: 'Remove a guest from a collection',
  description: `Removes the guest and their unused sign-in links. Their access ends on their next request: their session and every download link made for them stop working (\`410 link_unavailable\`). Inviting the address again makes a new guest. ${NOT_FOUND} Our design: the spec does not show this operation.`,
  scope: 'collections:write',
  paidOnly: true,
  request: { params: GuestIdParamSchema },
  responses: { 200: json(CollectionDeletedSchema, 'Removed') },
});

/** The guests of a collection: list, invite, remove. */
export function registerGuests(app: OpenAPIHono<AppEnv>) {
  app.openapi(list, async (c) => {
    return c.json({ guests: await listGuests(c.var.services, c.var.caller, c.req.valid('param').id) }, 200);
  });
  app.openapi(invite, async (c) => {
    return c.json(await inviteGuests(c.var.services, c.var.caller, c.req.valid('param').id, c.req.valid('json').emails), 200);
  });
  app.openapi(remove, async (c) => {
    const { id, guestId } = c.req.valid('param');
    return c.json(await removeGuest(c.var.services, c.var.caller, id, guestId), 200);
  });
}
