// The same rules and words as the server's schemas (src/contract/dashboard.ts), checked before
// sending so mistakes show at once; the server checks again and its answer is shown too.

export const minPasswordLength = 10;

export function newPasswordError(password: string): string | undefined {
  if (password.length < minPasswordLength) return `Use at least ${minPasswordLength} characters`;
  if (password.length > 200) return 'Use at most 200 characters';
  return undefined;
}

export function workspaceNameError(name: string): string | undefined {
  if (name.trim() === '') return 'Name your workspace';
  if (name.trim().length > 100) return 'Use at most 100 characters';
  return undefined;
}
