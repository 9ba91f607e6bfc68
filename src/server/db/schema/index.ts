/** The database schema, one module per domain; drizzle and the migrations see it whole through here. */
export * from './accounts.js';
export * from './platform.js';
export * from './contacts.js';
export * from './collections.js';
export * from './requests.js';
export * from './files.js';
export * from './transfers.js';
export * from './events.js';
export * from './vault.js';
export * from './oauth.js';
export * from './activity.js';
