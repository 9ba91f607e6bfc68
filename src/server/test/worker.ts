/**
 * The worker's passes, one at a time and on demand: tests drive the background work by hand (after
 * moving the test clock) instead of waiting for the worker's loops and schedules (assembly/worker.ts).
 */
export { runMaintenanceSweep, runTransferSweep } from '../assembly/worker.js';
export { importDueNow } from '../imports/importer.js';
export { deliverDueWebhooks } from '../webhooks/dispatcher.js';
