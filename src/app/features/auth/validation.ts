import { newPasswordError, workspaceNameError } from '../../lib/account-validation';
import type { FieldErrors } from '../../lib/form-errors';

// The same rules and words as the server's schemas (src/contract/dashboard.ts), checked before
// sending so mistakes show at once; the server checks again and its answer is shown too.

export { minPasswordLength } from '../../lib/account-validation';

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailError(email: string): string | undefined {
  const value = email.trim();
  if (value === '') return 'Enter your email address';
  if (value.length > 254 || !emailPattern.test(value)) return 'Enter a valid email address';
  return undefined;
}

export const signInFields = ['email', 'password'] as const;
export type SignInField = (typeof signInFields)[number];

export function validateSignIn(values: Record<SignInField, string>): FieldErrors<SignInField> {
  return {
    email: emailError(values.email),
    password: values.password === '' ? 'Enter your password' : undefined,
  };
}

export const signUpFields = ['email', 'password', 'workspaceName'] as const;
export type SignUpField = (typeof signUpFields)[number];

export function validateSignUp(values: Record<SignUpField, string>): FieldErrors<SignUpField> {
  return { email: emailError(values.email), password: newPasswordError(values.password), workspaceName: workspaceNameError(values.workspaceName) };
}
