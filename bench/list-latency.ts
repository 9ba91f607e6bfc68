/**
 * `npm run bench:lists`: do list pages and searches stay as fast with 1,000,000 rows as with 1,000?
 *
 * One process runs a real server (embedded PostgreSQL, or a scratch database it creates on the
 * server DATABASE_URL names) and the client, on 127.0.0.1. Two paid workspaces are seeded with SQL
 * (one INSERT … SELECT generate_series per table and workspace): a small one with 1,000 rows per
 * table and a big one with BENCH_ROWS. Each holds transfers (one file each), one collection with
 * its files, one pull webhook endpoint with its events, and contacts. Then every round requests each
 * case once for both workspaces (the order flips every round) and the report gives p50 and p99 per
 * case and size, the ratio big/small, and for searches the ratio to a plain first page of the big
 * workspace. Last, it captures the SQL each request issued and prints what `EXPLAIN (ANALYZE,
 * BUFFERS)` of it shows: index scans, or a sequential scan of a big table.
 *
 *   BENCH_ROWS        rows per table in the big workspace, default 1000000
 *   BENCH_ROUNDS      measured rounds, default 200 (after BENCH_WARMUP rounds, default 10)
 *   BENCH_DEEP_PAGES  how many pages deep the "deep page" lies, default 10 (cursors followed)
 *   BENCH_EXPLAIN     `text`: also print the full plans of the big workspace
 *   BENCH_KEEP_DATABASE  `1` with DATABASE_URL: keep the seeded scratch database (to study plans in psql)
 *
 * See bench/README.md for what each case requests and how the data looks.
 */
import { operatorActor } from '../src/server/activity/activity.js';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createApiKey } from '../src/server/auth/api-keys.js';
import { encodeCursor } from '../src/server/core/cursor.js';
import type { RunningServer } from '../src/server/assembly/runtime.js';
import { createWorkspaceWithOwner } from '../src/server/workspaces/accounts.js';
import { cleanupOnExit, positiveIntEnv, runMain, startBenchServer } from './support.js';

const SMALL_ROWS = 1000;
const PAGE = 100;
/** Searches: a word in 50 rows whatever the size ("a name you look for"), and one in 1 % of them. */
const RARE_MATCHES = 50;
const RARE_WORD = 'zanzibar';
const COMMON_WORD = 'invoice';
const RARE_SURNAME = 'quackenbush';
/** The tables seeded with BENCH_ROWS rows; the others stay tiny. */
const SEEDED_TABLES = ['transfers', 'files', 'transfer_files', 'collection_files', 'webhook_deliveries', 'contacts'];

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------

interface Seeded {
  /** Keys the samples and names the rows; `label` is what the report shows. */
  role: 'small' | 'big';
  label: string;
  rows: number;
  workspaceId: string;
  apiKey: string;
  collectionId: string;
  webhookId: string;
}

const words = (list: string[]) => `(ARRAY[${list.map((w) => `'${w}'`).join(',')}])`;
/** `list[(i / div) % length]`: deterministic, and different moduli mix the words. */
const pick = (list: string[], div = 1) => `${words(list)}[1 + ((i / ${div}) % ${list.length})]`;

const ADJECTIVES = ['Quarterly', 'Final', 'Draft', 'Raw', 'Edited', 'Signed', 'Scanned', 'Updated', 'Shared', 'Client', 'Team', 'Summer', 'Autumn', 'Spring', 'Winter', 'Studio', 'Project', 'Weekly', 'Annual', 'Campaign'];
const NOUNS = ['report', 'photos', 'footage', 'contract', 'slides', 'mockups', 'assets', 'logo', 'audio', 'backup', 'drawings', 'renders', 'brochure', 'manual', 'dataset', 'prototype', 'samples', 'podcast', 'portfolio', 'recordings', 'plans', 'sketches', 'scans', 'presentation', 'video', 'album', 'catalogue', 'proofs', 'layouts', 'notes'];
const FILE_PREFIXES = ['IMG_', 'DSC_', 'scan-', 'export-', 'final-', 'v2-', 'render_', 'clip-', 'take-', 'draft-', 'master-'];
const FILE_TYPES: [string, string][] = [['jpg', 'image/jpeg'], ['png', 'image/png'], ['pdf', 'application/pdf'], ['mov', 'video/quicktime'], ['mp4', 'video/mp4'], ['zip', 'application/zip'], ['wav', 'audio/wav'], ['psd', 'image/vnd.adobe.photoshop'], ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document']];
const FIRST_NAMES = ['Anna', 'Ben', 'Chloe', 'David', 'Emma', 'Felix', 'Grace', 'Hugo', 'Iris', 'Jonas', 'Klara', 'Liam', 'Mia', 'Noah', 'Olivia', 'Paul', 'Rosa', 'Sam', 'Tara', 'Uma', 'Victor', 'Wendy', 'Yusuf', 'Lena', 'Omar', 'Sofia', 'Mateo', 'Aiko', 'Nia'];
const LAST_NAMES = ['Müller', 'Schmidt', 'García', 'Rossi', 'Dubois', 'Novak', 'Jensen', 'Kowalski', 'Silva', 'Nakamura', 'Okafor', 'Larsen', 'Moreau', 'Fischer', 'Costa', 'Horvat', 'Berg', 'Lindqvist', 'Santos', 'Weber', 'Byrne', 'Kim', 'Haddad', 'Ivanova', 'Tanaka', 'Mensah', 'Patel', 'Nguyen', 'Smith', 'Jones', 'Brown'];
const COMPANIES = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Vandelay Industries', 'Soylent', 'Tyrell', 'Cyberdyne', 'Wonka', 'Stark Industries', 'Wayne Enterprises', 'Aperture', 'Black Mesa', 'Monarch', 'Oscorp', 'Pied Piper', 'Dunder Mifflin', 'Prestige Worldwide', 'Gringotts', 'Nakatomi', 'Massive Dynamic', 'Bluth Company'];

/** ISO-8601 in UTC with milliseconds, as the server writes `createdAt`. */
const isoSql = (col: string) => `to_char((${col}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The INSERT … SELECTs for one workspace. Ids are `prefix_` + 20 hex characters of md5(tag:i), so
 * a table's rows can name another's without a join, and they fall all over the primary key's
 * index as random ids do. Timestamps have millisecond precision, as the server's own.
 */
function seedStatements(ws: Seeded, tag: string, now: Date): { table: string; sql: string }[] {
  const n = ws.rows;
  // Half the rare transfers have the word in the title, half in a file name.
  const rare = Math.max(1, Math.floor(n / (RARE_MATCHES / 2)));
  const rareContact = Math.max(1, Math.floor(n / RARE_MATCHES));
  const id = (prefix: string, kind: string) => `'${prefix}_' || substr(md5('${tag}:${kind}:' || i), 1, 20)`;
  const w = `'${ws.workspaceId}'`;
  const at = `'${now.toISOString()}'::timestamptz`;
  // Transfers over a year, collection files and contacts too; the pull feed's events over its 30 days of retention.
  const series = (days: number) => `(SELECT i, date_trunc('milliseconds', ${at} - (${n} - i) * interval '${(days * 86_400_000) / n} milliseconds') AS created FROM generate_series(1, ${n}) AS i) AS s`;
  const ext = (k: 0 | 1, div: number) => `${words(FILE_TYPES.map((t) => t[k]))}[1 + ((i / ${div}) % ${FILE_TYPES.length})]`;
  // Each transfer's one file; the transfer holds its name and size too (`file_names`, `size_bytes`,
  // which the database's triggers keep, but they are off while seeding: session_replication_role = replica).
  const transferFileSize = `1024 + (i::bigint * 7919) % 500000000`;
  const transferFileName = `CASE WHEN i % ${rare} = ${11 % rare} THEN 'zanzibar-' || i || '.mov'
               WHEN i % 200 = 105 THEN 'invoice-' || i || '.pdf'
               ELSE ${pick(FILE_PREFIXES, 5)} || lpad(i::text, 7, '0') || '.' || ${ext(0, 11)} END`;
  return [
    {
      table: 'transfers',
      sql: `INSERT INTO transfers (id, workspace_id, slug, title, message, status, max_bytes, origin, finalized_at, ready_at, expires_at, created_at, file_names, size_bytes)
        SELECT ${id('tr', 't')}, ${w}, substr(md5('${tag}:slug:' || i), 1, 22),
          CASE WHEN i % ${rare} = ${3 % rare} THEN 'Zanzibar ' || ${pick(NOUNS, 3)} || ' ' || to_char(created, 'Mon YYYY')
               WHEN i % 200 = 5 THEN 'Invoice ' || i
               WHEN i % 10 = 0 THEN NULL
               ELSE ${pick(ADJECTIVES)} || ' ' || ${pick(NOUNS, 7)} || ' ' || to_char(created, 'Mon YYYY') END,
          CASE WHEN i % 4 = 0 THEN 'Here are the files we talked about.' END,
          CASE WHEN created + interval '30 days' < ${at} THEN 'expired' ELSE 'active' END,
          2147483648, CASE WHEN i % 3 = 0 THEN 'web' ELSE 'api' END, created, created, created + interval '30 days', created, ${transferFileName}, ${transferFileSize}
        FROM ${series(365)}`,
    },
    {
      table: 'files (of transfers)',
      sql: `INSERT INTO files (id, workspace_id, owner_kind, owner_id, name, size_bytes, mime_type, state, storage_key, crc32, scan_result, thumbnail_state, created_at, completed_at)
        SELECT ${id('fi', 'tf')}, ${w}, 'transfer', ${id('tr', 't')},
          ${transferFileName},
          ${transferFileSize}, ${ext(1, 11)}, 'complete', ${id('fi', 'tf')}, lpad(to_hex(i), 8, '0'), 'clean', 'failed', created, created
        FROM ${series(365)}`,
    },
    {
      table: 'transfer_files',
      sql: `INSERT INTO transfer_files (file_id, transfer_id) SELECT ${id('fi', 'tf')}, ${id('tr', 't')} FROM generate_series(1, ${n}) AS i`,
    },
    {
      table: 'files (of the collection)',
      sql: `INSERT INTO files (id, workspace_id, owner_kind, owner_id, name, size_bytes, mime_type, state, storage_key, crc32, scan_result, thumbnail_state, created_at, completed_at)
        SELECT ${id('fi', 'cf')}, ${w}, 'collection', '${ws.collectionId}',
          ${pick(FILE_PREFIXES, 3)} || lpad(i::text, 7, '0') || '.' || ${ext(0, 13)},
          1024 + (i::bigint * 104729) % 200000000, ${ext(1, 13)}, 'complete', ${id('fi', 'cf')}, lpad(to_hex(i), 8, '0'), 'clean', 'failed', created, created
        FROM ${series(365)}
        ORDER BY i`,
    },
    {
      table: 'collection_files',
      sql: `INSERT INTO collection_files (file_id, collection_id, source) SELECT ${id('fi', 'cf')}, '${ws.collectionId}', 'api' FROM generate_series(1, ${n}) AS i`,
    },
    {
      table: 'webhook_deliveries',
      // A pull feed someone has read: every delivery numbered (`seq`) as the first read numbers them.
      sql: `INSERT INTO webhook_deliveries (id, endpoint_id, workspace_id, mode, event_id, event_type, event_created_at, body, subject_kind, subject_id, status, seq, created_at)
        SELECT ${id('whd', 'd')}, '${ws.webhookId}', ${w}, 'pull', ${id('evt', 'e')}, 'transfer.ready', created,
          json_build_object('id', ${id('evt', 'e')}, 'type', 'transfer.ready', 'createdAt', ${isoSql('created')},
            'data', json_build_object('transfer', json_build_object('id', ${id('tr', 't')}, 'title', ${pick(ADJECTIVES)} || ' ' || ${pick(NOUNS, 7)},
              'url', 'https://files.example.com/t/' || substr(md5('${tag}:slug:' || i), 1, 22), 'status', 'active',
              'expiresAt', ${isoSql("created + interval '30 days'")}, 'fileCount', 1 + i % 5, 'recipients', json_build_array())))::text,
          'transfer', ${id('tr', 't')}, 'stored', i, created
        FROM ${series(30)}`,
    },
    {
      table: 'contacts',
      sql: `INSERT INTO contacts (id, workspace_id, email, first_name, last_name, company, phone, type, created_at, updated_at)
        SELECT ${id('ct', 'c')}, ${w}, lower(given || '.' || family || '.' || i || '@' || replace(company, ' ', '') || '.example'), given, family, company,
          '+49 30 ' || lpad((i % 10000000)::text, 7, '0'), 'person', created, created
        FROM (SELECT i, created, ${pick(FIRST_NAMES)} AS given,
                CASE WHEN i % ${rareContact} = ${7 % rareContact} THEN 'Quackenbush' ELSE ${pick(LAST_NAMES, 3)} END AS family,
                ${pick(COMPANIES, 5)} AS company
              FROM ${series(365)}) AS c`,
    },
  ];
}

/** Two paid workspaces with a key each, a collection and a pull endpoint; then the bulk rows. */
async function seed(server: RunningServer, sizes: { role: Seeded['role']; label: string; rows: number }[]): Promise<Seeded[]> {
  const { db, clock } = server.services;
  const now = clock.now();
  const seeded: Seeded[] = [];
  for (const { role, label, rows } of sizes) {
    const { workspace } = await createWorkspaceWithOwner(db, now, {
      email: `bench-lists-${role}-${randomBytes(4).toString('hex')}@example.test`,
      password: randomBytes(12).toString('base64url'),
      workspaceName: `Lists ${label}`,
      plan: 'paid',
    });
    const { secret } = await createApiKey(db, now, workspace.id, 'paid', 'bench', ['transfers:read', 'collections:read', 'webhooks:read', 'contacts:read'], operatorActor(null));
    seeded.push({ role, label, rows, workspaceId: workspace.id, apiKey: secret, collectionId: `col_${randomBytes(10).toString('hex')}`, webhookId: `wh_${randomBytes(10).toString('hex')}` });
  }

  await withOwnClient(server, async (client) => {
    await client.query(`SET maintenance_work_mem = '512MB'`);
    // Foreign keys are right by construction; without their per-row triggers the load is several times faster.
    const replica = await client.query(`SET session_replication_role = replica`).then(
      () => true,
      () => false,
    );
    // Secondary indexes are dropped and built again after the load, from their own definitions:
    // faster than maintaining them row by row, and they end up exactly as the schema has them.
    const { rows: indexes } = await client.query<{ name: string; def: string }>(
      `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
         FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
        WHERE c.relname = ANY($1) AND c.relnamespace = 'public'::regnamespace
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
      [SEEDED_TABLES],
    );
    for (const index of indexes) await client.query(`DROP INDEX ${index.name}`);

    const tag = randomBytes(3).toString('hex');
    for (const ws of seeded) {
      await client.query(
        `INSERT INTO collections (id, workspace_id, title, slug, created_at, updated_at) VALUES ($1, $2, 'Every file we have', $3, $4, $4)`,
        [ws.collectionId, ws.workspaceId, `bench-${ws.role}-${tag}`, now],
      );
      await client.query(
        `INSERT INTO webhook_endpoints (id, workspace_id, url, description, events, signing_secret, pull_seq, created_at, updated_at)
         VALUES ($1, $2, NULL, 'pull feed', ARRAY['transfer.ready'], $3, $4, $5, $5)`,
        [ws.webhookId, ws.workspaceId, randomBytes(24).toString('base64url'), ws.rows, now],
      );
      console.log(`seeding ${ws.rows.toLocaleString('en')} rows per table (${ws.label}, ${replica ? 'foreign-key triggers off' : 'foreign-key triggers on'})…`);
      for (const s of seedStatements(ws, `${tag}:${ws.role}`, now)) {
        const started = performance.now();
        await client.query(s.sql);
        console.log(`  ${s.table.padEnd(26)} ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
      }
    }
    let started = performance.now();
    for (const index of indexes) await client.query(index.def);
    console.log(`  ${indexes.length} secondary indexes built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    // Long-lived tables are vacuumed by autovacuum: visibility map set, hint bits written, statistics current.
    started = performance.now();
    await client.query(`VACUUM (ANALYZE) ${SEEDED_TABLES.join(', ')}, collections, webhook_endpoints, workspaces, api_keys`);
    console.log(`  VACUUM (ANALYZE) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    if (replica) await client.query(`SET session_replication_role = DEFAULT`);
    await client.query(`RESET maintenance_work_mem`);
  });
  return seeded;
}

// ---------------------------------------------------------------------------------------------
// Capturing the SQL a request issues, and explaining it
// ---------------------------------------------------------------------------------------------

interface Statement {
  text: string;
  values: unknown[];
}

/** While set, every query any pg client of this process sends (but our own) is recorded here. */
let captured: Statement[] | null = null;
const ownClients = new WeakSet<object>();
type QueryFn = (this: pg.Client, ...args: unknown[]) => unknown;
const clientQuery = pg.Client.prototype.query as unknown as QueryFn;
(pg.Client.prototype as unknown as { query: QueryFn }).query = function (this: pg.Client, ...args: unknown[]) {
  if (captured && !ownClients.has(this)) {
    const [first, second] = args;
    if (typeof first === 'string') captured.push({ text: first, values: Array.isArray(second) ? second : [] });
    else if (first && typeof first === 'object' && typeof (first as { text?: unknown }).text === 'string') {
      // drizzle passes `(config, params)`; pg's own callers put the values into the config.
      const q = first as { text: string; values?: unknown[] };
      captured.push({ text: q.text, values: q.values ?? (Array.isArray(second) ? second : []) });
    }
  }
  return clientQuery.apply(this, args);
};

/** Runs `fn` on a pooled connection whose queries are not captured; the pool hands it to the server again afterwards. */
async function withOwnClient<T>(server: RunningServer, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await server.services.db.$client.connect();
  ownClients.add(client);
  try {
    return await fn(client);
  } finally {
    ownClients.delete(client);
    client.release();
  }
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Scan Direction'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

interface Explained {
  statement: string;
  verdict: 'index' | 'SEQ SCAN';
  scans: string[];
  ms: number;
  buffers: number;
  text?: string;
}

const touchesSeeded = (text: string) => SEEDED_TABLES.some((t) => text.includes(`"${t}"`) || new RegExp(`\\b(from|join|update)\\s+${t}\\b`, 'i').test(text));

function scansOf(node: PlanNode, out: { scans: string[]; seq: boolean }) {
  const type = node['Node Type'];
  if (/Scan$/.test(type) && node['Relation Name']) {
    const using = node['Index Name'] ? ` using ${node['Index Name']}` : '';
    const backward = node['Scan Direction'] === 'Backward' ? ' Backward' : '';
    // Rows read, not only those kept: a scan that filters most of a table away is the thing to see.
    const loops = node['Actual Loops'] ?? 1;
    const kept = Math.round((node['Actual Rows'] ?? 0) * loops);
    const read = kept + Math.round(((node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) * loops);
    out.scans.push(`${type}${backward}${using} on ${node['Relation Name']} (${read === kept ? `${kept} rows` : `${kept} of ${read} rows read`})`);
    if (type === 'Seq Scan' && SEEDED_TABLES.includes(node['Relation Name'])) out.seq = true;
  } else if (type === 'Bitmap Index Scan' && node['Index Name']) {
    out.scans.push(`Bitmap Index Scan on ${node['Index Name']}`);
  }
  for (const child of node.Plans ?? []) scansOf(child, out);
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of each statement of a request that reads a seeded table, with the
 * request's own parameter values. Each runs in a transaction that is rolled back, since ANALYZE
 * executes the statement (the pull feed's numbering is an UPDATE).
 */
async function explain(server: RunningServer, statements: Statement[], withText: boolean): Promise<Explained[]> {
  const out: Explained[] = [];
  await withOwnClient(server, async (client) => {
    for (const s of statements) {
      if (!/^\s*(select|with|update|insert|delete)\b/i.test(s.text) || !touchesSeeded(s.text)) continue;
      await client.query('BEGIN');
      try {
        const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${s.text}`, s.values);
        const [{ Plan: plan, 'Execution Time': ms }] = rows[0]!['QUERY PLAN'];
        const found = { scans: [] as string[], seq: false };
        scansOf(plan, found);
        let text: string | undefined;
        if (withText) {
          const plain = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${s.text}`, s.values);
          text = plain.rows.map((r) => r['QUERY PLAN']).join('\n');
        }
        out.push({
          statement: s.text.replace(/\s+/g, ' ').trim(),
          verdict: found.seq ? 'SEQ SCAN' : 'index',
          scans: found.scans,
          ms,
          buffers: (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0),
          text,
        });
      } finally {
        await client.query('ROLLBACK');
      }
    }
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// The cases
// ---------------------------------------------------------------------------------------------

interface Case {
  name: string;
  search: boolean;
  /** The path to time for this workspace (cursors already followed or made), and what its answer must hold. */
  prepare(ws: Seeded): Promise<{ path: string; check: (body: Record<string, unknown>) => void }>;
}

async function getJson(server: RunningServer, ws: Seeded, pathname: string): Promise<{ ms: number; body: Record<string, unknown> }> {
  const started = performance.now();
  const res = await fetch(`${server.url}/api/v1${pathname}`, { headers: { authorization: `Bearer ${ws.apiKey}` } });
  const text = await res.text();
  const ms = performance.now() - started;
  if (!res.ok) throw new Error(`GET ${pathname} (${ws.label}): ${res.status} ${text.slice(0, 500)}`);
  return { ms, body: JSON.parse(text) as Record<string, unknown> };
}

const items = (body: Record<string, unknown>, key: string) => {
  const list = body[key];
  if (!Array.isArray(list)) throw new Error(`no "${key}" array in the answer`);
  return list as { id?: string; deliveryId?: string }[];
};

function expectCount(key: string, expected: number) {
  return (body: Record<string, unknown>) => {
    const n = items(body, key).length;
    if (n !== expected) throw new Error(`${key}: ${n} items, expected ${expected}`);
  };
}

function expectPage(key: string, firstId: string, idOf: (item: { id?: string; deliveryId?: string }) => string | undefined = (i) => i.id) {
  return (body: Record<string, unknown>) => {
    const list = items(body, key);
    if (list.length !== PAGE || idOf(list[0]!) !== firstId) throw new Error(`${key}: ${list.length} items starting at ${String(idOf(list[0] ?? {}))}, expected ${PAGE} from ${firstId}`);
  };
}

/** Follows `nextCursor` through `pages - 1` pages and returns the cursor of page `pages`. */
async function followCursors(server: RunningServer, ws: Seeded, base: string, pages: number): Promise<string> {
  let cursor = '';
  for (let page = 1; page < pages; page++) {
    const { body } = await getJson(server, ws, `${base}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (typeof body.nextCursor !== 'string') throw new Error(`${base} (${ws.label}): no cursor after page ${page}`);
    cursor = body.nextCursor;
  }
  return cursor;
}

function cases(server: RunningServer, deepPages: number): Case[] {
  const { cursorKey } = server.services;
  const sqlRows = <T extends pg.QueryResultRow>(text: string, values: unknown[]) => withOwnClient(server, async (client) => (await client.query<T>(text, values)).rows);
  /** The row `rank` (0-based) places into the list, and the one after it, which a cursor at `rank` starts the page with. */
  const middle = (ws: Seeded) => Math.floor(ws.rows / 2) - 1;
  const deep = (key: string, base: (ws: Seeded) => string, idOf?: (item: { id?: string; deliveryId?: string }) => string | undefined): Case['prepare'] => async (ws) => {
    const cursor = await followCursors(server, ws, base(ws), deepPages);
    const path = `${base(ws)}&cursor=${encodeURIComponent(cursor)}`;
    const { body } = await getJson(server, ws, path);
    const first = items(body, key)[0];
    const firstId = first ? (idOf ?? ((i) => i.id))(first) : undefined;
    if (!firstId) throw new Error(`${path} (${ws.label}): empty deep page`);
    return { path, check: expectPage(key, firstId, idOf) };
  };
  const transfersSearch = async (ws: Seeded, word: string) => {
    const [{ n }] = (await sqlRows<{ n: string }>(
      `SELECT count(*) AS n FROM transfers t WHERE t.workspace_id = $1 AND (t.title ILIKE $2
         OR EXISTS (SELECT 1 FROM files f WHERE f.owner_kind = 'transfer' AND f.owner_id = t.id AND f.name ILIKE $2))`,
      [ws.workspaceId, `%${word}%`],
    )) as [{ n: string }];
    return { path: `/transfers?limit=${PAGE}&q=${word}`, check: expectCount('transfers', Math.min(PAGE, Number(n))) };
  };
  return [
    { name: 'GET /transfers, first page', search: false, prepare: async () => ({ path: `/transfers?limit=${PAGE}`, check: expectCount('transfers', PAGE) }) },
    { name: `GET /transfers, page ${deepPages} (cursors)`, search: false, prepare: deep('transfers', () => `/transfers?limit=${PAGE}`) },
    {
      name: 'GET /transfers, middle of the table',
      search: false,
      prepare: async (ws) => {
        const [at, next] = await sqlRows<{ id: string; created_at: Date }>(
          `SELECT id, created_at FROM transfers WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 2`,
          [ws.workspaceId, middle(ws)],
        );
        const cursor = encodeCursor(cursorKey, 'transfers', ws.workspaceId, [at!.created_at.toISOString(), at!.id]);
        return { path: `/transfers?limit=${PAGE}&cursor=${encodeURIComponent(cursor)}`, check: expectPage('transfers', next!.id) };
      },
    },
    // The other orders of the dashboard's list (`sort=size`, `sort=expiry`): first page and a deep one.
    { name: 'GET /transfers?sort=size, first page', search: false, prepare: async () => ({ path: `/transfers?limit=${PAGE}&sort=size`, check: expectCount('transfers', PAGE) }) },
    { name: `GET /transfers?sort=size, page ${deepPages}`, search: false, prepare: deep('transfers', () => `/transfers?limit=${PAGE}&sort=size`) },
    { name: 'GET /transfers?sort=expiry, first page', search: false, prepare: async () => ({ path: `/transfers?limit=${PAGE}&sort=expiry`, check: expectCount('transfers', PAGE) }) },
    { name: 'GET /collections/{id}/files, first page', search: false, prepare: async (ws) => ({ path: `/collections/${ws.collectionId}/files?limit=${PAGE}`, check: expectCount('files', PAGE) }) },
    { name: `GET /collections/{id}/files, page ${deepPages} (cursors)`, search: false, prepare: deep('files', (ws) => `/collections/${ws.collectionId}/files?limit=${PAGE}`) },
    {
      name: 'GET /collections/{id}/files, middle',
      search: false,
      prepare: async (ws) => {
        const [at, next] = await sqlRows<{ id: string; seq: string }>(
          `SELECT f.id, f.seq FROM files f JOIN collection_files cf ON cf.file_id = f.id WHERE cf.collection_id = $1 ORDER BY f.seq OFFSET $2 LIMIT 2`,
          [ws.collectionId, middle(ws)],
        );
        const cursor = encodeCursor(cursorKey, `collection-files:${ws.collectionId}`, ws.workspaceId, [Number(at!.seq)]);
        return { path: `/collections/${ws.collectionId}/files?limit=${PAGE}&cursor=${encodeURIComponent(cursor)}`, check: expectPage('files', next!.id) };
      },
    },
    { name: 'GET /webhooks/{id}/events, first page', search: false, prepare: async (ws) => ({ path: `/webhooks/${ws.webhookId}/events?limit=${PAGE}`, check: expectCount('events', PAGE) }) },
    { name: `GET /webhooks/{id}/events, page ${deepPages} (cursors)`, search: false, prepare: deep('events', (ws) => `/webhooks/${ws.webhookId}/events?limit=${PAGE}`, (e) => e.deliveryId) },
    {
      name: 'GET /webhooks/{id}/events, middle',
      search: false,
      prepare: async (ws) => {
        const seq = middle(ws) + 1;
        const [next] = await sqlRows<{ id: string }>(`SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND seq = $2`, [ws.webhookId, seq + 1]);
        const cursor = encodeCursor(cursorKey, `webhook-events:${ws.webhookId}`, ws.workspaceId, [seq]);
        return { path: `/webhooks/${ws.webhookId}/events?limit=${PAGE}&cursor=${encodeURIComponent(cursor)}`, check: expectPage('events', next!.id, (e) => e.deliveryId) };
      },
    },
    { name: `GET /transfers?q=${RARE_WORD} (${RARE_MATCHES} rows)`, search: true, prepare: (ws) => transfersSearch(ws, RARE_WORD) },
    { name: `GET /transfers?q=${COMMON_WORD} (1 % of rows)`, search: true, prepare: (ws) => transfersSearch(ws, COMMON_WORD) },
    {
      name: `GET /contacts?q=${RARE_SURNAME} (${RARE_MATCHES} rows)`,
      search: true,
      prepare: async (ws) => {
        const [{ n }] = (await sqlRows<{ n: string }>(
          `SELECT count(*) AS n FROM contacts WHERE workspace_id = $1 AND ((first_name || ' ' || last_name) ILIKE $2 OR company ILIKE $2 OR email ILIKE $2)`,
          [ws.workspaceId, `%${RARE_SURNAME}%`],
        )) as [{ n: string }];
        return { path: `/contacts?q=${RARE_SURNAME}`, check: expectCount('contacts', Number(n)) };
      },
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

/** Nearest-rank percentile. */
function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/**
 * With DATABASE_URL: a scratch database on that server, dropped at the end, so the millions of
 * rows never land in a database that is in use. Otherwise the embedded PostgreSQL in DATA_DIR.
 */
async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return null;
  const name = `parcel_bench_lists_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  ownClients.add(admin);
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      ownClients.add(c);
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

const fmtMs = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0)).padStart(6);

async function main() {
  const bigRows = positiveIntEnv('BENCH_ROWS', 1_000_000);
  const rounds = positiveIntEnv('BENCH_ROUNDS', 200);
  const warmup = positiveIntEnv('BENCH_WARMUP', 10);
  const deepPages = positiveIntEnv('BENCH_DEEP_PAGES', 10);
  if (deepPages * PAGE > SMALL_ROWS) throw new Error(`BENCH_DEEP_PAGES × ${PAGE} must fit in the small workspace's ${SMALL_ROWS} rows`);
  const explainText = process.env.BENCH_EXPLAIN === 'text';

  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'parcel-bench-lists-'));
  const scratch = await scratchDatabase();
  let server: RunningServer | null = null;
  // Stops the server (and with it the embedded PostgreSQL), drops the scratch database and removes the temp dir.
  const cleanup = cleanupOnExit(async () => {
    await server?.close().catch((err: unknown) => console.error('could not stop the server:', err));
    if (scratch && process.env.BENCH_KEEP_DATABASE === '1') console.log(`kept the scratch database: ${scratch.url}`);
    else await scratch?.drop().catch((err: unknown) => console.error('could not drop the scratch database:', err));
    await fsp.rm(dataDir, { recursive: true, force: true }).catch((err: unknown) => console.error(`could not remove ${dataDir}:`, err));
  });

  try {
    console.log('starting the server…');
    const started = await startBenchServer(dataDir, { transferBytes: 1000 ** 3, monthBytes: 1000 ** 3 }, {
      // The benchmark's own request rate is not what is measured.
      RATE_LIMIT_KEY_PER_MINUTE: '100000000',
      RATE_LIMIT_WORKSPACE_PER_DAY: '1000000000',
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    });
    server = started.server;
    const running = started.server;
    const [{ version }] = (await running.services.db.$client.query<{ version: string }>('SELECT version()')).rows as [{ version: string }];

    const seedStarted = performance.now();
    const workspaces = await seed(running, [
      { role: 'small', label: '1k', rows: SMALL_ROWS },
      { role: 'big', label: bigRows >= 1_000_000 ? `${bigRows / 1_000_000}M` : `${bigRows / 1000}k`, rows: bigRows },
    ]);
    console.log(`seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);
    const [small, big] = workspaces as [Seeded, Seeded];

    const list = cases(running, deepPages);
    console.log('following cursors to the deep pages and checking every case once…');
    const prepared = new Map<string, { path: string; check: (body: Record<string, unknown>) => void }>();
    for (const c of list) {
      for (const ws of workspaces) {
        const p = await c.prepare(ws);
        p.check((await getJson(running, ws, p.path)).body);
        prepared.set(`${c.name}|${ws.role}`, p);
      }
    }

    const samples = new Map<string, number[]>(list.flatMap((c) => workspaces.map((ws) => [`${c.name}|${ws.role}`, []] as [string, number[]])));
    console.log(`measuring: ${warmup} warm-up + ${rounds} rounds of ${list.length} cases × 2 sizes…`);
    for (let round = -warmup; round < rounds; round++) {
      const order = round % 2 === 0 ? workspaces : [...workspaces].reverse();
      for (const c of list) {
        for (const ws of order) {
          const key = `${c.name}|${ws.role}`;
          const { ms, body } = await getJson(running, ws, prepared.get(key)!.path);
          if (round < 0) prepared.get(key)!.check(body);
          else samples.get(key)!.push(ms);
        }
      }
    }

    console.log('capturing and explaining the SQL of each case…');
    const plans = new Map<string, Explained[]>();
    for (const c of list) {
      for (const ws of workspaces) {
        const key = `${c.name}|${ws.role}`;
        captured = [];
        await getJson(running, ws, prepared.get(key)!.path);
        const statements = captured;
        captured = null;
        plans.set(key, await explain(running, statements, explainText && ws === big));
      }
    }

    // The report.
    const stat = (c: Case, ws: Seeded) => {
      const xs = samples.get(`${c.name}|${ws.role}`)!;
      return { p50: percentile(xs, 50), p99: percentile(xs, 99) };
    };
    const plainBig = stat(list[0]!, big);
    const w = Math.max(...list.map((c) => c.name.length));
    console.log('');
    console.log(`list latency, ${small.label} and ${big.label} rows per table, ${rounds} rounds (after ${warmup} warm-up), ms per request (client side, whole body read)`);
    console.log(`Node ${process.version}, ${os.platform()}-${os.arch()}, ${os.availableParallelism()} CPUs; ${version.split(' on ')[0]} (${scratch ? 'external' : 'embedded'}); client and server on loopback`);
    console.log('');
    console.log(`${'case'.padEnd(w)}  ${`${small.label} p50`.padStart(6)} ${'p99'.padStart(6)}  ${`${big.label} p50`.padStart(6)} ${'p99'.padStart(6)}   ratio p50  p99   search/page at ${big.label}`);
    for (const c of list) {
      const s = stat(c, small);
      const b = stat(c, big);
      const vsPage = c.search ? `${(b.p50 / plainBig.p50).toFixed(2)}x`.padStart(8) : '';
      console.log(`${c.name.padEnd(w)}  ${fmtMs(s.p50)} ${fmtMs(s.p99)}  ${fmtMs(b.p50)} ${fmtMs(b.p99)}   ${(b.p50 / s.p50).toFixed(2).padStart(8)} ${(b.p99 / s.p99).toFixed(2).padStart(5)}   ${vsPage}`);
    }
    console.log('');
    console.log(`targets: ${big.label}/1k p50 within 1.2x for pages; a search at ${big.label} within 3x of the plain first page at ${big.label} (p50).`);
    console.log('');
    console.log(`EXPLAIN (ANALYZE, BUFFERS) of the SQL each request issued that reads a seeded table (${SEEDED_TABLES.join(', ')}):`);
    for (const c of list) {
      console.log(`  ${c.name}`);
      for (const ws of workspaces) {
        for (const e of plans.get(`${c.name}|${ws.role}`)!) {
          console.log(`    ${ws.label.padEnd(3)} ${e.verdict.padEnd(8)} ${fmtMs(e.ms)} ms ${String(e.buffers).padStart(6)} buffers  ${e.scans.join('; ')}`);
          if (e.text) console.log(`        ${e.statement.slice(0, 400)}\n${e.text.replace(/^/gm, '        ')}`);
        }
      }
    }
    const sizes = await running.services.db.$client.query<{ relname: string; size: string }>(
      `SELECT relname, pg_size_pretty(pg_total_relation_size(oid)) AS size FROM pg_class WHERE relname = ANY($1) AND relnamespace = 'public'::regnamespace ORDER BY relname`,
      [SEEDED_TABLES],
    );
    console.log('');
    console.log(`table sizes with indexes: ${sizes.rows.map((r) => `${r.relname} ${r.size}`).join(', ')}`);
  } finally {
    await cleanup();
  }
}

runMain(main);
