import type { Database } from './connection.js';

const names = new Set<string>();

/** What drizzle's node-postgres driver keeps of a database or transaction, and of a prepared query: the connection it uses. */
interface Bound {
  client: unknown;
}
const connectionOf = (db: object): unknown => (db as { session?: Bound }).session?.client;

/**
 * A query the server sends on nearly every request, built once and sent as a named prepared
 * statement. Building a query with drizzle costs far more CPU than sending it (about 200 µs against
 * 30 µs for the credential look-up, docs/performance.md), and PostgreSQL then parses and plans it
 * once per connection instead of once per call. Values are `sql.placeholder(name)`s, given to
 * `execute`.
 *
 * The query is built on the first database it is asked for; any other database, or a transaction
 * (`tx`), gets the same built query bound to its own connection, so it runs inside that
 * transaction. `name` must be unique among prepared queries: PostgreSQL keeps each connection's
 * statements by name.
 */
export function preparedQuery<Q extends object, D extends Pick<Database, 'select'> = Database>(name: string, build: (db: D, name: string) => Q): (db: D) => Q {
  if (names.has(name)) throw new Error(`two prepared queries are named ${name}`);
  names.add(name);
  let built: Q | null = null;
  const bound = new WeakMap<object, Q>();
  return (db) => {
    let query = bound.get(db);
    if (query !== undefined) return query;
    if (built === null) {
      built = build(db, name);
      // The binding below relies on drizzle's driver keeping the connection as `client`, on the
      // database's session and on the query alike; db/prepared.test.ts proves it still does.
      if ((built as Partial<Bound>).client !== connectionOf(db)) throw new Error(`prepared query ${name}: drizzle no longer keeps its connection where expected`);
      query = built;
    } else {
      query = Object.create(built, { client: { value: connectionOf(db) } }) as Q;
    }
    bound.set(db, query);
    return query;
  };
}
