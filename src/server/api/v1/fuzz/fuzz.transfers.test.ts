import { fuzzCasesOf } from './case-suite.js';

/** Fuzzing the transfer operations: one thing broken at a time (case-suite.ts). */
fuzzCasesOf('transfers');
