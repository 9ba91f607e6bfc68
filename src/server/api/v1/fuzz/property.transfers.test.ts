import { fuzzPropertiesOf } from './property-suite.js';

/** Fuzzing the transfer operations: requests fast-check generates from their schemas (property-suite.ts). */
fuzzPropertiesOf('transfers');
