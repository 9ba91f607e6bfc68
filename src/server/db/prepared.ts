import type { Database } from './connection.js';

/**
 * A query the server sends on nearly every request, built once per database (or transaction) and
 * sent as a named prepared statement. Building a query with drizzle costs far more CPU than sending
 * it (about 200 µs against 30 µs for the credential look-up, docs/performance.md), and PostgreSQL
 * then parses and plans it once per connection instead of once per call. Values are
 * `sql.placeholder(name)`s, given to `execute`.
 *
 * `name` must be unique among prepared queries: PostgreSQL keeps each connection's statements by
 * name. A transaction (`tx`) gets its own, built on it, so the query runs inside that transaction.
 */
const names = new Set<string>();

export function preparedQuery<Q, D extends Pick<Database, 'select'> = Database>(name: string, build: (db: D, name: string) => Q): (db: D) => Q {
  if (names.has(name)) throw new Error(`two prepared queries are named ${name}`);
  names.add(name);
  const built = new WeakMap<object, Q>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db, name);
      built.set(db, query);
    }
    return query;
  };
}
