import { fuzzPropertiesOf } from './property-suite.js';

/** Fuzzing the collection operations: requests fast-check generates from their schemas (property-suite.ts). */
fuzzPropertiesOf('collections');
