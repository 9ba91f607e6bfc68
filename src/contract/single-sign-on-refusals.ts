/**
 * Why a single sign-on landed back on the sign-in page (`/signin?sso_error=…`); the page says each in
 * its own words. Without zod, so the sign-in page (a first visit's) takes only these words.
 */
export const singleSignOnRefusals = ['expired', 'refused', 'unverified_email', 'no_workspace', 'member_limit', 'unavailable', 'disabled'] as const;
export type SingleSignOnRefusal = (typeof singleSignOnRefusals)[number];
