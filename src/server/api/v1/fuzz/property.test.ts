import { fuzzPropertiesOf } from './property-suite.js';

/** Fuzzing every v1 operation but the transfer and collection ones (property.transfers.test.ts, property.collections.test.ts): requests fast-check generates from their schemas (property-suite.ts). */
fuzzPropertiesOf('others');
