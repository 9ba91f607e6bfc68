import { z } from '@hono/zod-openapi';

export const PlanNameSchema = z.enum(['free', 'paid']).openapi({ description: 'The plan in force now. A paid plan past its end date is free.' });

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
    plan: z.object({
      name: PlanNameSchema,
      until: z.iso.datetime().nullable().openapi({ description: 'When a paid plan ends; null when it runs until changed, and on the free plan.' }),
      limits: z.object({
        monthlyCalls: z.number().int().nullable().openapi({ description: 'Calls a month through /api/v1; null means no allowance applies.' }),
        ratePerKeyPerMinute: z.number().int(),
        ratePerWorkspacePerDay: z.number().int(),
        webhookEndpoints: z.number().int(),
        includedUploadBytesPerMonth: z.number().int(),
        uploadPriceEurPerGb: z.number(),
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
      apiCalls: z.number().int(),
      apiUploadBytes: z.number().int(),
      creditEur: z.number().openapi({ description: 'Prepaid credit left, in euros.' }),
    }),
  })
  .openapi('Account');

export const ReferralSchema = z
  .object({
    code: z.string().openapi({ example: 'K7QX2M9P' }),
    link: z.url().openapi({ example: 'http://localhost:8080/signup?ref=K7QX2M9P' }),
    freeMonthsEarned: z.number().int().min(0).openapi({ description: 'One month for each referred workspace that took a paid plan.' }),
  })
  .openapi('Referral');

export type Me = z.infer<typeof MeSchema>;
export type Referral = z.infer<typeof ReferralSchema>;
