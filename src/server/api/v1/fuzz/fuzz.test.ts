import { fuzzCasesOf } from './case-suite.js';

/** Fuzzing every v1 operation but the transfer and collection ones (fuzz.transfers.test.ts, fuzz.collections.test.ts): one thing broken at a time (case-suite.ts). */
fuzzCasesOf('others');
