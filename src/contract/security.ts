import { z } from '@hono/zod-openapi';

/**
 * Settings → Security and the second step of signing in (docs/security.md): two-step verification
 * with an authenticator app, its recovery codes, and the person's sessions.
 */

/** Six digits from an authenticator app; spaces (as some apps show them) are ignored. */
export const AuthenticatorCodeSchema = z
  .string()
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, { error: 'Enter the 6-digit code from your authenticator app' }));

export const TwoStepStatusSchema = z.object({
  enabled: z.boolean(),
  enabledAt: z.iso.datetime().nullable(),
  /** Recovery codes not used yet. */
  recoveryCodesLeft: z.number().int(),
});

export const TwoStepSetupSchema = z.object({
  /** The shared secret in base32, for typing into an app that cannot scan. */
  secret: z.string(),
  /** The `otpauth://totp/…` URI the QR code carries. */
  uri: z.string(),
});

export const EnableTwoStepRequestSchema = z.object({
  password: z.string().min(1, { error: 'Enter your password' }).max(200),
  code: AuthenticatorCodeSchema,
});

export const RecoveryCodesSchema = z.object({
  /** Ten single-use codes, shown this once: only their hashes are kept. */
  recoveryCodes: z.array(z.string()),
});

/** Proof that it is the person, for turning two-step verification off or making new recovery codes: a current code, or the password. */
export const ConfirmIdentityRequestSchema = z
  .object({
    code: z.string().max(40).optional(),
    password: z.string().max(200).optional(),
  })
  .refine((v) => Boolean(v.code?.trim()) || Boolean(v.password), { error: 'Enter a code from your authenticator app, or your password', path: ['code'] });

export const SecondStepRequestSchema = z.object({
  /** A 6-digit code from the authenticator app, or one of the recovery codes. */
  code: z.string().trim().min(1, { error: 'Enter the code' }).max(40),
  /** Skip the second step in this browser for 30 days. */
  trustBrowser: z.boolean().default(false),
});

export const SignInSessionSchema = z.object({
  id: z.string().openapi({ example: 'ses_4kQ2w9Zb7LmN3pR8sT1v' }),
  /** The session this request was made with. */
  current: z.boolean(),
  userAgent: z.string().nullable(),
  /** The client's address when the session was last seen. */
  address: z.string().nullable(),
  workspaceName: z.string(),
  createdAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
});

export const SessionListSchema = z.object({ sessions: z.array(SignInSessionSchema) });

export const EndedSessionsSchema = z.object({ ended: z.number().int() });

export type TwoStepStatus = z.infer<typeof TwoStepStatusSchema>;
export type TwoStepSetup = z.infer<typeof TwoStepSetupSchema>;
export type EnableTwoStepRequest = z.input<typeof EnableTwoStepRequestSchema>;
export type ConfirmIdentityRequest = z.input<typeof ConfirmIdentityRequestSchema>;
export type SecondStepRequest = z.input<typeof SecondStepRequestSchema>;
export type SignInSession = z.infer<typeof SignInSessionSchema>;

export const PasskeySchema = z.object({
  id: z.string().openapi({ example: 'pk_4kQ2w9Zb7LmN3pR8sT1v' }),
  name: z.string(),
  /** Synced to the person's other devices by their password manager or platform. */
  backedUp: z.boolean(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
});

export const PasskeyListSchema = z.object({ passkeys: z.array(PasskeySchema) });

/** The WebAuthn options for `navigator.credentials.create()` or `.get()`, as JSON (what `@simplewebauthn/browser` takes). */
export const WebAuthnOptionsSchema = z.object({ options: z.record(z.string(), z.unknown()) });

/** A credential's JSON from the browser (`@simplewebauthn/browser`), checked by the server's WebAuthn library. */
const CredentialResponseSchema = z
  .object({ id: z.string().max(1400), rawId: z.string().max(1400), type: z.literal('public-key'), response: z.record(z.string(), z.unknown()) })
  .loose();

export const RegisterPasskeyRequestSchema = z.object({
  name: z.string().trim().min(1, { error: 'Name the passkey' }).max(100, { error: 'Use at most 100 characters' }),
  credential: CredentialResponseSchema,
});

export const PasskeySignInRequestSchema = z.object({ credential: CredentialResponseSchema });

export type Passkey = z.infer<typeof PasskeySchema>;

/** An identity provider the operator set up, as the sign-in page offers it. */
export const SignInProviderSchema = z.object({ id: z.string(), name: z.string() });
export const SignInProviderListSchema = z.object({ providers: z.array(SignInProviderSchema) });

/** Which identity provider's button was pressed (`idp_…`). */
export const SingleSignOnStartQuerySchema = z.object({ provider: z.string().min(1).max(40) });

/** An email domain the workspace tied to an identity provider. */
export const SignInDomainSchema = z.object({
  domain: z.string(),
  providerId: z.string(),
  providerName: z.string(),
  createdAt: z.iso.datetime(),
});

/** The workspace's single sign-on: the providers one may tie a domain to, the domains tied, and whether it is required. */
export const SingleSignOnSettingsSchema = z.object({
  providers: z.array(SignInProviderSchema),
  domains: z.array(SignInDomainSchema),
  required: z.boolean(),
});

export const TieSignInDomainRequestSchema = z.object({
  /** A domain of the person's own address, such as `example.com`. */
  domain: z.string().trim().min(3).max(253),
  providerId: z.string().min(1).max(40),
});

export const SingleSignOnRequirementSchema = z.object({ required: z.boolean() });
export type SignInProvider = z.infer<typeof SignInProviderSchema>;
export type SingleSignOnSettings = z.infer<typeof SingleSignOnSettingsSchema>;
export type TieSignInDomainRequest = z.input<typeof TieSignInDomainRequestSchema>;
