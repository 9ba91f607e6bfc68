import { parseArgs } from 'node:util';
import type { Scope } from '../../contract/scopes.js';
import { scopes as allScopes } from '../../contract/scopes.js';
import type { Plan } from '../workspaces/plan.js';
import { AdminError, parseDomain, parseEur, parsePlan, parseScopes, parseUntil } from './commands.js';

export const usage = `Usage: npm run --silent admin -- <command> [options]

Operator commands. They work while the server runs: without DATABASE_URL they use the PostgreSQL
of the server running on DATA_DIR, or start it for the command and stop it again when none runs.

Commands:
  bootstrap --email E --password P [--workspace NAME] [--plan free|paid]
      Creates a workspace and its owner (or reuses them when a user with this email exists and the
      password matches; --plan then sets the plan) and prints a new API key named "bootstrap" with
      every scope the plan allows. Default workspace name: "My workspace".
  plan set --workspace ID --plan free|paid [--until DATE]
      Sets the plan. DATE (paid only) is ISO 8601: 2027-01-31 (00:00 UTC) or 2027-01-31T18:00:00Z.
      Without --until a paid plan runs until changed.
  credit add --workspace ID --eur N
      Adds N euros (a positive decimal, up to 6 decimals) of prepaid credit; prints the new balance.
  key create --workspace ID --name NAME --scopes a,b
      Creates an API key. Scopes: ${allScopes.join(', ')}
      (collections:write needs the paid plan).
  domain set --workspace ID --domain HOST
      Makes HOST (files.example.com: no scheme, port or path) the workspace's own domain: its
      collections with a custom link are served at https://HOST/<slug>. Point HOST's DNS at this
      server and serve TLS for it at your proxy. A domain belongs to one workspace at most.
  domain clear --workspace ID
      Removes the workspace's domain; its custom links answer 404 from the next request.
  sso add --name NAME --issuer URL --client-id ID --client-secret SECRET
      Sets up an OpenID Connect identity provider people can sign in through ("Sign in with NAME").
      Register this server's redirect URI with the provider first (sso list prints it). The
      provider's metadata is read now, so a wrong issuer is refused. The secret is stored sealed.
  sso list
      The identity providers, and the redirect URI to register with each.
  sso remove --id ID
      Removes a provider: the workspace domains tied to it are untied.

Options for every command:
  --json     print exactly one JSON object on stdout (errors: {"error":{"code","message"}}); logs go to stderr
  -h, --help print this help

Environment: DATABASE_URL, DATA_DIR (default ./data), LOG_LEVEL (default warn for this tool).
Exit codes: 0 success, 1 error (invalid value, unknown workspace or provider, wrong password, plan
refusal, domain taken, database unreachable), 2 usage error (unknown command or option, missing option or
value).
Use "npm run --silent" (or call "npx tsx src/server/admin/cli.ts") so that npm adds nothing to stdout.`;

export type Command =
  | { name: 'help' }
  | { name: 'bootstrap'; options: { email: string; password: string; workspaceName?: string; plan?: Plan } }
  | { name: 'plan set'; options: { workspaceId: string; plan: Plan; until: Date | null } }
  | { name: 'credit add'; options: { workspaceId: string; microEur: number } }
  | { name: 'key create'; options: { workspaceId: string; name: string; scopes: Scope[] } }
  | { name: 'domain set'; options: { workspaceId: string; domain: string } }
  | { name: 'domain clear'; options: { workspaceId: string } }
  | { name: 'sso add'; options: { name: string; issuer: string; clientId: string; clientSecret: string } }
  | { name: 'sso list'; options: Record<string, never> }
  | { name: 'sso remove'; options: { id: string } };

export interface ParsedArgs {
  command: Command;
  json: boolean;
}

type OptionSpec = Record<string, { type: 'string' } | { type: 'boolean'; short?: string }>;

const common: OptionSpec = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } };

const commandOptions: Record<Exclude<Command['name'], 'help'>, OptionSpec> = {
  bootstrap: { email: { type: 'string' }, password: { type: 'string' }, workspace: { type: 'string' }, plan: { type: 'string' } },
  'plan set': { workspace: { type: 'string' }, plan: { type: 'string' }, until: { type: 'string' } },
  'credit add': { workspace: { type: 'string' }, eur: { type: 'string' } },
  'key create': { workspace: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' } },
  'domain set': { workspace: { type: 'string' }, domain: { type: 'string' } },
  'domain clear': { workspace: { type: 'string' } },
  'sso add': { name: { type: 'string' }, issuer: { type: 'string' }, 'client-id': { type: 'string' }, 'client-secret': { type: 'string' } },
  'sso list': {},
  'sso remove': { id: { type: 'string' } },
};

const groups: Record<string, string[]> = { plan: ['set'], credit: ['add'], key: ['create'], domain: ['set', 'clear'], sso: ['add', 'list', 'remove'] };

const usageError = (message: string) => new AdminError('usage', message);

/** node:util's messages, made one line: "Option '--email' argument is ambiguous. Did you forget…" → "--email needs a value". */
function parseArgsMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const ambiguous = /^Option '(--[\w-]+)(?:, -\w)?(?: <value>)?' argument is ambiguous/.exec(message);
  if (ambiguous) return `${ambiguous[1]} needs a value (write ${ambiguous[1]}=-value for one that starts with a dash)`;
  const missing = /^Option '(--[\w-]+)(?:, -\w)?(?: <value>)?' argument missing/.exec(message);
  if (missing) return `${missing[1]} needs a value`;
  return (message.split('\n')[0] ?? message).replace(/\. To specify .*$/, '').replace(/[.\s]+$/, '');
}

/** True when `--json` appears anywhere, so that even a usage error comes out as JSON. */
export const wantsJson = (argv: readonly string[]) => argv.includes('--json');

/** Parses the arguments after `admin --`; throws AdminError ('usage' or 'invalid_request') on bad input. */
export function parseCommandLine(argv: readonly string[]): ParsedArgs {
  const rest = [...argv];
  let json = false;
  let help = false;
  // Global flags may come before the command words.
  while (rest[0]?.startsWith('-')) {
    const flag = rest.shift()!;
    if (flag === '--json') json = true;
    else if (flag === '--help' || flag === '-h') help = true;
    else throw usageError(`Unknown option ${flag} before the command`);
  }
  if (help) return { command: { name: 'help' }, json };
  const word = rest.shift();
  if (word === undefined || word === 'help') return word === 'help' ? { command: { name: 'help' }, json } : missingCommand();

  let name: string;
  if (word === 'bootstrap') {
    name = word;
  } else if (groups[word]) {
    const sub = rest.shift();
    if (sub === undefined || sub.startsWith('-')) {
      if (sub === '--help' || sub === '-h') return { command: { name: 'help' }, json };
      throw usageError(`"${word}" needs a subcommand: ${groups[word].map((s) => `${word} ${s}`).join(', ')}`);
    }
    if (!groups[word].includes(sub)) throw usageError(`Unknown command "${word} ${sub}"`);
    name = `${word} ${sub}`;
  } else {
    throw usageError(`Unknown command "${word}"`);
  }

  const spec = { ...commandOptions[name as keyof typeof commandOptions], ...common };
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: rest, options: spec, strict: true, allowPositionals: false }));
  } catch (err) {
    throw usageError(`${name}: ${parseArgsMessage(err)}`);
  }
  json ||= values.json === true;
  if (values.help === true) return { command: { name: 'help' }, json };

  const required = (option: string): string => {
    const v = values[option];
    if (typeof v !== 'string') throw usageError(`${name}: --${option} is required`);
    return v;
  };
  const optional = (option: string): string | undefined => {
    const v = values[option];
    return typeof v === 'string' ? v : undefined;
  };

  switch (name) {
    case 'bootstrap': {
      const email = required('email');
      const password = required('password');
      const workspaceName = optional('workspace');
      const plan = optional('plan');
      return { command: { name, options: { email, password, workspaceName, plan: plan === undefined ? undefined : parsePlan(plan) } }, json };
    }
    case 'plan set': {
      const workspaceId = required('workspace');
      const plan = parsePlan(required('plan'));
      const untilText = optional('until');
      if (untilText !== undefined && plan !== 'paid') throw usageError('plan set: --until applies only to --plan paid');
      return { command: { name, options: { workspaceId, plan, until: untilText === undefined ? null : parseUntil(untilText) } }, json };
    }
    case 'credit add': {
      const workspaceId = required('workspace');
      return { command: { name, options: { workspaceId, microEur: parseEur(required('eur')) } }, json };
    }
    case 'key create': {
      const workspaceId = required('workspace');
      const keyName = required('name');
      return { command: { name, options: { workspaceId, name: keyName, scopes: parseScopes(required('scopes')) } }, json };
    }
    case 'domain set': {
      const workspaceId = required('workspace');
      return { command: { name, options: { workspaceId, domain: parseDomain(required('domain')) } }, json };
    }
    case 'domain clear':
      return { command: { name, options: { workspaceId: required('workspace') } }, json };
    case 'sso add':
      return {
        command: { name, options: { name: required('name'), issuer: required('issuer'), clientId: required('client-id'), clientSecret: required('client-secret') } },
        json,
      };
    case 'sso list':
      return { command: { name, options: {} }, json };
    case 'sso remove':
      return { command: { name, options: { id: required('id') } }, json };
  }
  throw usageError(`Unknown command "${name}"`);
}

function missingCommand(): never {
  throw usageError('No command given');
}
