import { z } from '@hono/zod-openapi';
import { resourceIdParam } from './ids.js';
import { LOCALES } from './locales.js';
import { SenderSchema } from './transfers.js';

/**
 * The workspace address book. The spec types every text field as a string and leaves the rest
 * open; our choices: only `email` is required, every other text field defaults to "" (so it is
 * always a string on output), and `type` is `person` or `company`.
 */

export const contactTypes = ['person', 'company'] as const;
export type ContactType = (typeof contactTypes)[number];

/** C0/C1 control characters, and the bidirectional overrides and isolates that can disguise text. */
const FORBIDDEN_CHARACTERS = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

const required = (field: string) => ({
  error: (issue: { input: unknown }) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`),
});

/** An optional text field: trimmed, bounded, without control characters, "" when omitted. */
function textField(field: string, max: number) {
  return z
    .string(required(field))
    .trim()
    .max(max, { error: `${field} must be at most ${max} characters` })
    .refine((v) => !FORBIDDEN_CHARACTERS.test(v), { error: `${field} must not contain control characters` });
}

const PHONE_PATTERN = /^[0-9+\-(). ]*$/;

export const ContactInputSchema = z
  .object({
    email: z
      .string(required('email'))
      .trim()
      .toLowerCase()
      .max(254, { error: 'email must be at most 254 characters' })
      .check(z.email({ error: 'email must be a valid email address' }))
      .openapi({
        description:
          'Required. Trimmed and stored lower-cased. Unique in the workspace, compared case-insensitively: a second contact with the same address answers `409 conflict` with `details.reason` `contact_exists` and `details.contactId`.',
        example: 'ada@example.com',
      }),
    firstName: textField('firstName', 200).default('').openapi({ description: 'Up to 200 characters. Defaults to "".', example: 'Ada' }),
    lastName: textField('lastName', 200).default('').openapi({ description: 'Up to 200 characters. Defaults to "".', example: 'Lovelace' }),
    company: textField('company', 200).default('').openapi({ description: 'Up to 200 characters. Defaults to "".', example: 'Analytical Engines Ltd' }),
    phone: textField('phone', 50).regex(PHONE_PATTERN, { error: 'phone may only contain digits, spaces and + - ( ) .' }).default('').openapi({
      description: 'Up to 50 characters: digits, spaces and `+ - ( ) .`. Stored as given (trimmed), not normalised. Defaults to "".',
      example: '+44 20 7946 0958',
    }),
    type: z
      .enum(contactTypes, { error: 'type must be one of: person, company' })
      .default('person')
      .openapi({ description: '`person` or `company`. Defaults to `person`.', example: 'person' }),
    language: z
      .union([z.enum(LOCALES), z.literal('')], { error: `language must be one of: ${LOCALES.join(', ')} (or "" for none)` })
      .default('')
      .openapi({
        description: `Our addition: the language mail to this address is written in (${LOCALES.join(', ')}), unless a sender picks another for one transfer (\`recipientLanguages\`). Defaults to "": the sender's own language.`,
        example: 'de',
      }),
  })
  .openapi('ContactInput', {
    description:
      'A contact as written by `createContact`, `replaceContact` and `syncContacts`. Only `email` is required. Every text field is trimmed; control characters and bidirectional overrides are refused. Omitted optional fields take their defaults (also on replace, which resets them). Null is not accepted: omit a field or send "".',
  });

export const ContactSchema = z
  .object({
    id: z.string().openapi({ example: 'ct_4fQ9s0aQ2nVt7LbX4cRw' }),
    firstName: z.string().openapi({ description: '"" when not given.', example: 'Ada' }),
    lastName: z.string().openapi({ description: '"" when not given.', example: 'Lovelace' }),
    company: z.string().openapi({ description: '"" when not given.', example: 'Analytical Engines Ltd' }),
    email: z.string().openapi({ description: 'Lower-cased. Unique in the workspace.', example: 'ada@example.com' }),
    phone: z.string().openapi({ description: '"" when not given.', example: '+44 20 7946 0958' }),
    type: z.string().openapi({
      description: 'Currently `person` or `company`. Treat other values as unknown, not as an error.',
      example: 'person',
    }),
    language: z.string().openapi({ description: 'Our addition: the language of mail to this address, "" when not given (the sender\'s own then).', example: 'de' }),
    createdBy: SenderSchema.nullable().openapi({
      description:
        'Our addition: the member or API key that made it (created it, or imported it with `syncContacts` or the dashboard’s CSV import); null for one made before teams, or whose maker’s account is gone. A replace or a later sync does not change it.',
    }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime().openapi({ description: 'When the contact was created or last replaced.' }),
  })
  .openapi('Contact');

export const ContactResponseSchema = z.object({ contact: ContactSchema });

export const ContactListSchema = z.object({
  contacts: z.array(ContactSchema).openapi({
    description:
      'Every matching contact in one response (not paginated). Ordered by `lastName`, then `firstName`, then `email`, each compared case-insensitively by code point; an empty `lastName` or `firstName` sorts after non-empty ones, and `id` breaks remaining ties.',
  }),
});

export const ContactDeletedSchema = z.object({ deleted: z.literal(true) });

export const ContactIdParamSchema = z.object({
  id: resourceIdParam('id', 'ct', 'The contact id.', 'ct_4fQ9s0aQ2nVt7LbX4cRw'),
});

export const ContactListQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .max(200, { error: 'q must be at most 200 characters' })
    .refine((v) => !FORBIDDEN_CHARACTERS.test(v), { error: 'q must not contain control characters' })
    .optional()
    .openapi({
      param: { name: 'q', in: 'query' },
      description:
        'Keeps contacts whose name (`firstName lastName`), `company` or `email` contains this text, case-insensitively. Matched literally: `%` and `_` are not wildcards. Trimmed; empty means no filter.',
      example: 'engines',
    }),
});

/** The most contacts one `syncContacts` call takes. */
export const MAX_SYNC_CONTACTS = 1000;

/** The message naming a repeated email in one sync, shared by the schema and the operation. */
export const duplicateEmailMessage = (firstIndex: number) => `email repeats entry ${firstIndex} of this call`;

/** The most contacts one CSV import in the dashboard writes (in one transaction, like a sync). */
export const MAX_IMPORT_CONTACTS = 10_000;

/** A batch of contacts written together: the body of `syncContacts` and of the dashboard's CSV import, which differ only in size. */
function contactBatchSchema(max: number) {
  return z
    .object({
      contacts: z
        .array(ContactInputSchema, { error: 'contacts must be an array of contacts' })
        .min(1, { error: 'contacts must hold at least 1 contact' })
        .max(max, { error: `contacts must hold at most ${max} contacts` })
        .openapi({
          description: `1 to ${max} contacts, each a ContactInput. Each email may appear once: a repeat (compared after trimming and lower-casing) refuses the call naming the repeat, as \`contacts.<index>.email\`.`,
        }),
    })
    .superRefine((body, ctx) => {
      const firstIndex = new Map<string, number>();
      body.contacts.forEach((contact, index) => {
        const first = firstIndex.get(contact.email);
        if (first === undefined) firstIndex.set(contact.email, index);
        else ctx.addIssue({ code: 'custom', path: ['contacts', index, 'email'], message: duplicateEmailMessage(first) });
      });
    });
}

export const SyncContactsRequestSchema = contactBatchSchema(MAX_SYNC_CONTACTS).openapi('SyncContactsRequest', {
  description:
    'Contacts to upsert into the address book, matched to existing contacts by email, case-insensitively: a new address is created; a known one is replaced entirely by its entry (fields left out are reset to their defaults, as `replaceContact` does), or left unwritten when its stored fields already equal the entry. All or nothing: one invalid entry refuses the whole call, naming `contacts.<index>.<field>`, and nothing is written.',
});

/** `POST /api/dashboard/contacts/import`: the rows of a CSV file the owner checked in the preview, written as one sync. */
export const ImportContactsRequestSchema = contactBatchSchema(MAX_IMPORT_CONTACTS);

export const SyncContactsResponseSchema = z
  .object({
    created: z.number().int().min(0).openapi({ description: 'Entries whose email was not in the workspace: new contacts.', example: 2 }),
    updated: z.number().int().min(0).openapi({ description: 'Known contacts whose stored fields differed from the entry and were replaced.', example: 1 }),
    unchanged: z.number().int().min(0).openapi({
      description: 'Known contacts whose stored fields already equal the entry: not written, `updatedAt` unchanged.',
      example: 7,
    }),
    contacts: z.array(ContactSchema).openapi({ description: 'Every contact of the request as now stored, in the order of the request.' }),
  })
  .openapi('SyncContactsResponse');

export type ContactInput = z.input<typeof ContactInputSchema>;
export type Contact = z.infer<typeof ContactSchema>;
export type ContactResponse = z.infer<typeof ContactResponseSchema>;
export type ContactList = z.infer<typeof ContactListSchema>;
export type SyncContactsRequest = z.input<typeof SyncContactsRequestSchema>;
export type SyncContactsResponse = z.infer<typeof SyncContactsResponseSchema>;
