// What other features use of this feature, and all they may import of it (eslint.config.js). Re-exports only:
// vite.config.ts declares this file free of side effects, so a feature loads just the modules of the names it takes.
export { useBillingOn, useSession, sessionQueryKey, sessionQueryOptions } from './api/get-session';
export { startSession } from './api/sign-in';
export { useSignOut } from './api/sign-out';
export { emailError } from './validation';
export { asksSecondStep } from './api/second-step';
export { SecondStepForm } from './components/second-step-form';
export { browserRefusal, passkeysSupported } from './api/passkey-sign-in';
export { SingleSignOnButtons } from './components/single-sign-on-buttons';
