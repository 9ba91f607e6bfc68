import * as z from 'zod/mini';

// zod compiles object parsers with `new Function` unless told not to, and our CSP forbids eval.
// Set once, before any route validates its search params.
z.config({ jitless: true });
