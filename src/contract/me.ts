import { z } from '@hono/zod-openapi';

export const PlanNameSchema = z.enum(['free', 'paid']).openapi({ description: 'The plan in force now. A paid plan past its end date is free.' });

export const MemberRoleSchema = z.enum(['owner', 'admin', 'member']).openapi({
  description: 'A member\'s role (docs/teams.md): `owner` (exactly one: everything, including the plan and handing over ownership), `admin` (everything else: members, keys, webhooks, settings, every transfer), `member` (sends and manages their own transfers; works in every collection, request and the address book).',
});

export const MeSchema = z
  .object({
    key: z.object({
      id: z.string().openapi({ example: 'key_3hK9s0aQ2nVt7LbX4cRw' }),
      name: z.string().nullable().openapi({ description: 'The API key\'s name; null for tokens that have none.' }),
      via: z.enum(['key', 'oauth', 'session']).openapi({
        description: '`key` for an API key, `oauth` for an OAuth access token. The dashboard\'s own short-lived tokens report `session`.',
      }),
      scopes: z.array(z.string()),
      canEmail: z.boolean().openapi({ description: 'Whether sending with this credential may email recipients.' }),
    }),
    workspace: z.object({
      id: z.string(),
      name: z.string(),
      customDomain: z.string().nullable(),
      createdAt: z.iso.datetime(),
    }),
    member: z
      .object({
        id: z.string().openapi({ example: 'usr_5nQ2xK8wLm3Pz7VbR1tY' }),
        name: z.string().nullable().openapi({ description: 'How teammates see the person; null until they give one.' }),
        email: z.string(),
      })
      .nullable()
      .openapi({ description: 'Our addition: the workspace member a dashboard or OAuth token acts as; null for an API key, which acts as the workspace\'s owner.' }),
    role: MemberRoleSchema.openapi({ description: 'Our addition: what the caller may do in the workspace. The member\'s role; `owner` for an API key (spec, Authentication rule 5).' }),
    plan: z.object({
      name: PlanNameSchema,
      until: z.iso.datetime().nullable().openapi({ description: 'When a paid plan ends; null when it runs until changed, on the free plan, and when `billing` is `off`.' }),
      billing: z.enum(['on', 'off']).openapi({
        description:
          'Our addition: `off` on a server that bills nobody (its operator set `BILLING=off`). Then every workspace has the paid plan (`name` is `paid`, `until` null) and nothing is charged: `limits.monthlyCalls` is the paid plan\'s (null: no allowance), `limits.includedUploadBytesPerMonth` is null and `limits.uploadPriceEurPerGb` 0 (uploads are counted in `usage.apiUploadBytes` but never charged, so no `402 out_of_credit`), `usage.creditEur` is 0, and `GET /me/referral` earns no free months.',
      }),
      limits: z.object({
        monthlyCalls: z.number().int().nullable().openapi({ description: 'Calls a month through /api/v1; null means no allowance applies.' }),
        ratePerKeyPerMinute: z.number().int(),
        ratePerWorkspacePerDay: z.number().int(),
        webhookEndpoints: z.number().int(),
        includedUploadBytesPerMonth: z
          .number()
          .int()
          .nullable()
          .openapi({ description: 'API upload bytes a month included before each GB costs `uploadPriceEurPerGb` from prepaid credit; null when uploads are not charged (`billing` `off`).' }),
        uploadPriceEurPerGb: z.number().openapi({ description: 'Price of an API-uploaded GB past the included volume; 0 when `billing` is `off`.' }),
        transferMaxBytes: z.number().int().openapi({ description: 'Size ceiling of one transfer.' }),
        transferExpiry: z
          .object({
            defaultDays: z.number().int(),
            choosable: z.boolean().openapi({ description: 'False on the free plan, whose expiry is fixed.' }),
            minimumHours: z.number().int(),
            minimumSeconds: z.number().int().openapi({ description: 'The earliest a chosen expiry may be, from now.' }),
            maximumDays: z.number().int(),
          })
          .openapi({ description: 'When a transfer expires: fixed on the free plan, chosen within this range on a paid plan.' }),
      }),
    }),
    usage: z.object({
      month: z.string().openapi({ description: 'UTC calendar month, YYYY-MM.', example: '2026-11' }),
      apiCalls: z.number().int().openapi({
        description: 'Calls this month that count toward `plan.limits.monthlyCalls`: those made with API keys and OAuth tokens. The dashboard\'s own session tokens never count.',
      }),
      apiUploadBytes: z.number().int(),
      creditEur: z.number().openapi({ description: 'Prepaid credit left, in euros; 0 when `plan.billing` is `off`.' }),
    }),
    scanning: z
      .object({
        enabled: z.boolean().openapi({
          description:
            'True when this server scans every uploaded and imported file for malware (ClamAV) before anyone may download it; false when its operator has configured no scanner, and files are served unscanned (`scanResult` stays null).',
        }),
      })
      .openapi({ description: 'Our addition: whether files are scanned for viruses on this server.' }),
  })
  .openapi('Account');

export const ReferralEarnsOnSchema = z.enum(['paid', 'signup']).openapi({
  description: 'When a referred workspace counts: `paid` once it has ever taken a paid plan, `signup` as soon as it signs up.',
});

export const ReferralSchema = z
  .object({
    code: z.string().openapi({ description: 'The workspace\'s invite code; sign-up takes it in any letter case.', example: 'K7QX2M9P' }),
    link: z
      .url()
      .openapi({ description: 'The sign-up page with the code in its `ref` parameter, to share.', example: 'http://localhost:8080/signup?ref=K7QX2M9P' }),
    signups: z.number().int().min(0).openapi({ description: 'Workspaces that signed up through this workspace\'s link (or with its code).', example: 3 }),
    qualifyingSignups: z.number().int().min(0).openapi({ description: 'Of `signups`, those that count under `rule.earnsOn`.', example: 2 }),
    freeMonthsEarned: z
      .number()
      .int()
      .min(0)
      .openapi({ description: '`qualifyingSignups` × `rule.monthsPerReferral`, capped at `rule.maxFreeMonths`.', example: 2 }),
    rule: z
      .object({
        earnsOn: ReferralEarnsOnSchema,
        monthsPerReferral: z
          .number()
          .int()
          .min(0)
          .openapi({ description: 'Free months per qualifying sign-up; 0 means the link invites but earns nothing.', example: 1 }),
        maxFreeMonths: z.number().int().min(0).openapi({ description: 'The most free months a workspace can earn from referrals in total.', example: 12 }),
      })
      .openapi({ description: 'How referrals earn free months on this server; its operator configures it.' }),
  })
  .openapi('Referral');

export type Me = z.infer<typeof MeSchema>;
export type Referral = z.infer<typeof ReferralSchema>;
