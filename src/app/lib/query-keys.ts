/**
 * Every query holding the signed-in user's data has a key under this root, so signing in or out
 * can drop all of it in one call (`removeQueries({ queryKey: userDataRoot })`) and no data from one
 * account is ever shown to the next.
 */
export const userDataRoot = ['user'] as const;

/** Who is signed in: read by the shell (sign-in) and changed by settings (a renamed workspace). */
export const sessionQueryKey = ['session'] as const;
