import type { IntlShape } from 'react-intl';
import { newPasswordError, workspaceNameError } from '../../lib/account-validation';
import type { FieldErrors } from '../../lib/form-errors';
import { currentIntl } from '../../lib/intl';

// The same rules and words as the server's schemas (src/contract/dashboard.ts), checked before
// sending so mistakes show at once; the server checks again and its answer is shown too.

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailError(email: string, intl: IntlShape = currentIntl()): string | undefined {
  const value = email.trim();
  if (value === '') return intl.formatMessage({ id: 'auth.validation.emailMissing', defaultMessage: 'Enter your email address' });
  if (value.length > 254 || !emailPattern.test(value)) return intl.formatMessage({ id: 'auth.validation.emailInvalid', defaultMessage: 'Enter a valid email address' });
  return undefined;
}

export const signInFields = ['email', 'password'] as const;
export type SignInField = (typeof signInFields)[number];

export function validateSignIn(values: Record<SignInField, string>): FieldErrors<SignInField> {
  const intl = currentIntl();
  return {
    email: emailError(values.email, intl),
    password: values.password === '' ? intl.formatMessage({ id: 'auth.validation.passwordMissing', defaultMessage: 'Enter your password' }) : undefined,
  };
}

export const signUpFields = ['email', 'password', 'workspaceName'] as const;
export type SignUpField = (typeof signUpFields)[number];

export function validateSignUp(values: Record<SignUpField, string>): FieldErrors<SignUpField> {
  const intl = currentIntl();
  return { email: emailError(values.email, intl), password: newPasswordError(values.password, intl), workspaceName: workspaceNameError(values.workspaceName, intl) };
}
