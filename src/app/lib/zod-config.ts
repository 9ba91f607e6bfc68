import { config } from 'zod/v4/core';

// zod compiles object parsers with `new Function` unless told not to, and our CSP forbids eval.
// Imported by each module of the app that parses with a schema, before its first parse. Not by the
// entry: no schema library is in the first-load bundle (search params are read by hand).
config({ jitless: true });
