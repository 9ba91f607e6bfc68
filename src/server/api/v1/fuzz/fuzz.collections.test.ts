import { fuzzCasesOf } from './case-suite.js';

/** Fuzzing the collection operations: one thing broken at a time (case-suite.ts). */
fuzzCasesOf('collections');
