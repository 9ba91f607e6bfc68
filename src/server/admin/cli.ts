import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { ConfigError, loadConfig, type Config } from '../config.js';
import type { Database } from '../db/connection.js';
import { systemClock } from '../core/clock.js';
import { parseCommandLine, usage, wantsJson, type Command, type ParsedArgs } from './args.js';
import { serverKeys } from '../settings.js';
import { AdminError, bootstrap, creditAdd, domainClear, domainSet, formatEur, keyCreate, planSet, ssoAdd, ssoList, ssoRemove } from './commands.js';
import { databaseErrorMessage, openAdminDatabase, type AdminDatabase } from './database.js';

/**
 * `npm run admin -- <command>`: argv parsing, database resolution, printing and exit codes.
 * The commands themselves live in commands.ts. stdout carries only the result (one JSON object with
 * --json); logs, progress and errors go to stderr.
 */

interface Io {
  out(line: string): void;
  err(line: string): void;
}

const stdio: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

type RunnableCommand = Exclude<Command, { name: 'help' }>;

async function execute(db: Database, command: RunnableCommand, config: Config): Promise<{ result: object; text: string }> {
  switch (command.name) {
    case 'bootstrap': {
      const r = await bootstrap(db, command.options, systemClock, config);
      const what = r.created ? `Created workspace ${r.workspaceId}` : `Reused workspace ${r.workspaceId}`;
      return { result: r, text: `${what} (plan ${r.plan}) owned by ${command.options.email.trim().toLowerCase()}\nAPI key "bootstrap": ${r.apiKey}` };
    }
    case 'plan set': {
      const r = await planSet(db, command.options, systemClock);
      return { result: r, text: `Workspace ${r.workspaceId} is on the ${r.plan} plan${r.until ? ` until ${r.until}` : r.plan === 'paid' ? ' with no end date' : ''}` };
    }
    case 'credit add': {
      const r = await creditAdd(db, command.options);
      return {
        result: r,
        text: `Added ${formatEur(command.options.microEur)} EUR to ${r.workspaceId}; credit is now ${formatEur(r.creditMicroEur)} EUR`,
      };
    }
    case 'key create': {
      const r = await keyCreate(db, command.options, systemClock, config);
      return { result: r, text: `Created key ${r.id} "${r.name}" for ${r.workspaceId} with ${r.scopes.join(', ')}\nAPI key: ${r.apiKey}` };
    }
    case 'domain set': {
      const r = await domainSet(db, { ...command.options, publicUrl: config.PUBLIC_URL });
      const was = r.previousDomain && r.previousDomain !== r.customDomain ? ` (was ${r.previousDomain})` : '';
      return {
        result: r,
        text: `Workspace ${r.workspaceId} now has the domain ${r.customDomain}${was}: collections with a custom link are served at https://${r.customDomain}/<slug>\nPoint its DNS at this server and serve TLS for it at your proxy.`,
      };
    }
    case 'domain clear': {
      const r = await domainClear(db, command.options);
      return {
        result: r,
        text: r.previousDomain ? `Workspace ${r.workspaceId} no longer has the domain ${r.previousDomain}` : `Workspace ${r.workspaceId} had no domain`,
      };
    }
    case 'sso add': {
      const r = await ssoAdd(db, command.options, { config, sealingKey: (await serverKeys(db, config)).sealingKey });
      return {
        result: r,
        text: `Added identity provider ${r.id} "${r.name}" (${r.issuer}): the sign-in page offers "Sign in with ${r.name}".\nIts redirect URI (register it with the provider): ${r.redirectUri}\nA workspace's owner ties their email domain to it in Security → Single sign-on.`,
      };
    }
    case 'sso list': {
      const r = await ssoList(db, config);
      const lines = r.providers.map((p) => `${p.id}  ${p.name}  ${p.issuer}  client ${p.clientId}`);
      return { result: r, text: `${lines.length > 0 ? lines.join('\n') : 'No identity providers.'}\nRedirect URI: ${r.redirectUri}` };
    }
    case 'sso remove': {
      const r = await ssoRemove(db, command.options);
      return { result: r, text: `Removed identity provider ${r.id}; the domains tied to it are untied` };
    }
  }
}

function stderrLogger(env: NodeJS.ProcessEnv) {
  // The server logs at info by default; for a one-shot tool only warnings matter unless asked for more.
  const level = env.LOG_LEVEL && env.LOG_LEVEL !== '' ? env.LOG_LEVEL : 'warn';
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ dest: 2, sync: true }));
}

/** Runs one command line and returns the exit code; never throws. */
export async function runCli(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, io: Io = stdio): Promise<number> {
  let json = wantsJson(argv);
  let config: Config | undefined;
  let database: AdminDatabase | undefined;
  const fail = (err: AdminError): number => {
    io.err(`admin: ${err.message}`);
    if (json) io.out(JSON.stringify({ error: { code: err.code, message: err.message } }));
    return err.exitCode;
  };

  try {
    let parsed: ParsedArgs;
    try {
      parsed = parseCommandLine(argv);
    } catch (err) {
      if (err instanceof AdminError && err.code === 'usage' && !json) {
        io.err(argv.length === 0 ? usage : `admin: ${err.message}\nRun "npm run admin -- --help" for usage.`);
        return err.exitCode;
      }
      throw err;
    }
    json = parsed.json;
    const { command } = parsed;
    if (command.name === 'help') {
      if (json) io.out(JSON.stringify({ usage }));
      else io.out(usage);
      return 0;
    }

    try {
      config = loadConfig(env);
    } catch (err) {
      if (err instanceof ConfigError) throw new AdminError('config', err.message);
      throw err;
    }
    const log = stderrLogger(env);
    database = await openAdminDatabase(config, log, {
      onStartingEmbedded: (dir) => {
        if (!json) io.err(`No server is running on ${dir}: starting its PostgreSQL for this command...`);
      },
    });
    const { result, text } = await execute(database.db, command, config);
    if (json) io.out(JSON.stringify(result));
    else io.out(text);
    return 0;
  } catch (err) {
    if (err instanceof AdminError) return fail(err);
    const dbMessage = databaseErrorMessage(err, config?.DATABASE_URL);
    if (dbMessage) return fail(new AdminError('database_unavailable', dbMessage));
    // Unexpected: keep the stack on stderr for a bug report, and still answer in the promised shape.
    io.err(err instanceof Error && err.stack ? err.stack : String(err));
    if (json) io.out(JSON.stringify({ error: { code: 'internal_error', message: err instanceof Error ? err.message : String(err) } }));
    return 1;
  } finally {
    await database?.close().catch((err: unknown) => io.err(`admin: closing the database failed: ${(err as Error).message}`));
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await runCli(process.argv.slice(2));
}
