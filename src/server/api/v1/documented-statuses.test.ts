import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorStatus, type ErrorCode } from '../../../contract/errors.js';
import { v1App } from './index.js';
import { openApiDocumentConfig } from './openapi.js';
import { v1Operations, type V1Operation } from './route.js';

/**
 * Every status an operation can answer is in its OpenAPI responses, and every error code its
 * handler can throw is named in the description of that status: derived, not listed by hand.
 *
 * What an operation answers comes from two places:
 * - the route table (`v1Operations`, what `v1Route` put in front of the handler): authentication
 *   and rate limits, scopes, the plan gate of paid-only operations, idempotency on POST, body
 *   parsing, and the app's error rendering (`assembly/app.ts` `onError`), the same for every operation;
 * - the handler: every `ApiError` it can throw. These are found by reading the source with the
 *   TypeScript compiler: from the handler given to `app.openapi(route, handler)`, every function,
 *   method or arrow function it refers to (across modules, through imports) is read in turn, and
 *   each `new ApiError(code, …)` met on the way gives the status of its code (`errorStatus`). The
 *   code's static type is read, so a helper such as `linkUnavailable(reason)` or a code picked
 *   from a union counts as every code it can be. Calls through an interface (a `FileOwner`, the
 *   mailer) have no body to read and are not followed; everything else an operation calls is.
 *
 * An error thrown in a function the handler can reach but never actually reaches would be asked for
 * too; documenting it is the cheap way out, and keeps the answer conservative. A new `ApiError`
 * thrown by an operation, with a status it does not document or a code its description does not
 * name (a 409 `files_infected` on finalize, a 400 for a name), fails here until the route says what
 * it means (`responses` of its `v1Route`, which the route builder merges with the shared ones).
 *
 * Run on the code before this test existed, it named exactly what a reviewer found by hand: 402 on
 * `POST /transfers`, `POST /transfers/{id}/files` and `PATCH /transfers/{id}`, 409 on `DELETE
 * /transfers/{id}/files/{fileId}` and `PATCH /requests/{id}`, 503 nowhere, and two tags undeclared.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const v1Dir = path.join(root, 'src/server/api/v1');
const serverDir = path.join(root, 'src/server');

interface ScannedOperation {
  method: string;
  path: string;
  /** Status → one place that throws it, for the failure message. */
  thrown: Map<number, string>;
  /** Every code thrown → one place that throws it. */
  codes: Map<ErrorCode, string>;
}

let scanned: ScannedOperation[];
let documented: Map<string, { statuses: Set<number>; descriptions: Map<number, string>; tags: string[] }>;
let declaredTags: Set<string>;

beforeAll(() => {
  const doc = v1App().getOpenAPI31Document(openApiDocumentConfig('http://127.0.0.1')) as unknown as {
    paths: Record<string, Record<string, { responses: Record<string, { description?: string }>; tags?: string[] }>>;
    tags?: { name: string }[];
  };
  documented = new Map();
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      documented.set(`${method.toUpperCase()} ${p}`, {
        statuses: new Set(Object.keys(op.responses).map(Number)),
        descriptions: new Map(Object.entries(op.responses).map(([s, r]) => [Number(s), r.description ?? ''])),
        tags: op.tags ?? [],
      });
    }
  }
  declaredTags = new Set((doc.tags ?? []).map((t) => t.name));
  scanned = scanHandlers();
}, 300_000);

describe('the statuses of every v1 operation', () => {
  it('finds the handler of every registered operation in the source', () => {
    const found = new Set(scanned.map((o) => `${o.method} ${o.path}`));
    const registered = [...new Set(v1Operations.map((o) => `${o.method} ${o.path}`))];
    expect(registered.filter((o) => !found.has(o))).toEqual([]);
    // The scan reaches errors: at least the not-found of a lookup by id, somewhere.
    expect(scanned.some((o) => o.thrown.has(404))).toBe(true);
  });

  it('documents every status the route table and the handler can answer', () => {
    const missing: string[] = [];
    for (const op of v1Operations) {
      const key = `${op.method} ${op.path}`;
      const docs = documented.get(key);
      expect(docs, key).toBeDefined();
      const handler = scanned.find((o) => o.method === op.method && o.path === op.path);
      const expected = new Map<number, string>([...routeTableStatuses(op)].map((s) => [s, 'the route table']));
      for (const [status, where] of handler?.thrown ?? []) if (!expected.has(status)) expected.set(status, where);
      for (const [status, where] of expected) if (!docs!.statuses.has(status)) missing.push(`${key}: ${status} (${where})`);
    }
    expect(missing).toEqual([]);
  });

  it('names, in the description of its status, every error code a handler can throw', () => {
    const unnamed: string[] = [];
    for (const op of scanned) {
      const key = `${op.method} ${op.path}`;
      for (const [code, where] of op.codes) {
        const description = documented.get(key)?.descriptions.get(errorStatus[code]) ?? '';
        if (!description.includes(`\`${code}\``)) unnamed.push(`${key}: ${errorStatus[code]} ${code} (${where})`);
      }
    }
    expect(unnamed).toEqual([]);
  });

  it('declares every tag an operation uses', () => {
    const used = new Set([...documented.values()].flatMap((d) => d.tags));
    expect([...used].filter((t) => !declaredTags.has(t))).toEqual([]);
  });
});

/**
 * What every operation answers before or around its handler, by what the route table says of it
 * (see `v1Route`): 401 and 429 from authentication and rate limits, 403 from the scope check, 400
 * from validation, 404 for an unknown or malformed id, 402 on paid-only operations, 409 from
 * idempotency on POST, 413 and 415 for a body, 500 and 503 (database or storage out of reach) from
 * the app's error rendering.
 */
function routeTableStatuses(op: V1Operation): Set<number> {
  const statuses = new Set([400, 401, 403, 404, 429, 500, 503]);
  if (op.paidOnly) statuses.add(402);
  if (op.method === 'POST') statuses.add(409);
  if (op.request.body) [413, 415].forEach((s) => statuses.add(s));
  return statuses;
}

/** Reads the v1 route modules with the compiler and follows each handler's calls to the ApiErrors they throw. */
function scanHandlers(): ScannedOperation[] {
  const configFile = ts.readConfigFile(path.join(root, 'tsconfig.json'), (f) => ts.sys.readFile(f));
  const config = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
  const routeFiles = ts.sys
    .readDirectory(v1Dir, ['.ts'], undefined, undefined)
    .filter((f) => !f.endsWith('.test.ts') && !f.includes('/fuzz/'));
  const program = ts.createProgram(routeFiles, { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const apiErrorFile = path.join(serverDir, 'core/errors.ts');

  const isApiError = (expr: ts.Expression) => {
    let symbol = checker.getSymbolAtLocation(expr);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    return symbol?.name === 'ApiError' && symbol.declarations?.some((d) => path.resolve(d.getSourceFile().fileName) === apiErrorFile);
  };

  /** The codes an expression can hold, by its static type. */
  const codesOf = (expr: ts.Expression): ErrorCode[] => {
    const type = checker.getTypeAtLocation(expr);
    const members = type.isUnion() ? type.types : [type];
    return members.flatMap((t) => (t.isStringLiteral() && t.value in errorStatus ? [t.value as ErrorCode] : []));
  };

  const ownSource = (node: ts.Node) => {
    const file = path.resolve(node.getSourceFile().fileName);
    return file.startsWith(serverDir + path.sep) && !file.endsWith('.test.ts') && !file.includes(`${path.sep}test${path.sep}`);
  };

  /** The body of what a symbol names, when it is a function of our own source. */
  const bodiesOf = (symbol: ts.Symbol | undefined): ts.Node[] => {
    if (!symbol) return [];
    if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    return (symbol.declarations ?? []).flatMap((d): ts.Node[] => {
      if (!ownSource(d)) return [];
      if ((ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d) || ts.isConstructorDeclaration(d) || ts.isGetAccessor(d)) && d.body) return [d.body];
      if ((ts.isVariableDeclaration(d) || ts.isPropertyAssignment(d) || ts.isPropertyDeclaration(d)) && d.initializer) {
        const init = d.initializer;
        if (ts.isArrowFunction(init) || ts.isFunctionExpression(init) || ts.isObjectLiteralExpression(init) || ts.isCallExpression(init)) return [init];
      }
      if (ts.isClassDeclaration(d)) return d.members.filter((m) => ts.isConstructorDeclaration(m) && m.body).map((m) => (m as ts.ConstructorDeclaration).body!);
      return [];
    });
  };

  const where = (node: ts.Node) => {
    const file = node.getSourceFile();
    const { line } = file.getLineAndCharacterOfPosition(node.getStart());
    return `${path.relative(root, file.fileName)}:${line + 1}`;
  };

  /** Every code thrown by what `start` reaches, with one place that throws it. */
  function errorsFrom(start: ts.Node): Map<ErrorCode, string> {
    const thrown = new Map<ErrorCode, string>();
    const seen = new Set<ts.Node>();
    const queue: ts.Node[] = [start];
    while (queue.length > 0) {
      const node = queue.pop()!;
      if (seen.has(node)) continue;
      seen.add(node);
      const visit = (n: ts.Node) => {
        if (ts.isNewExpression(n) && isApiError(n.expression) && n.arguments?.[0]) {
          for (const code of codesOf(n.arguments[0])) if (!thrown.has(code)) thrown.set(code, where(n));
        }
        if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) {
          for (const body of bodiesOf(checker.getSymbolAtLocation(n))) if (!seen.has(body)) queue.push(body);
        }
        ts.forEachChild(n, visit);
      };
      visit(node);
    }
    return thrown;
  }

  const operations: ScannedOperation[] = [];
  for (const file of routeFiles) {
    const source = program.getSourceFile(file);
    if (!source) continue;
    const visit = (n: ts.Node) => {
      // `app.openapi(route, handler)`: the route is a `v1Route({ method, path, … })` constant.
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'openapi' && n.arguments.length >= 2) {
        const [routeArg, handler] = n.arguments as unknown as [ts.Expression, ts.Expression];
        const route = routeConfig(checker, routeArg);
        if (route) {
          const codes = errorsFrom(handler);
          const thrown = new Map<number, string>();
          for (const [code, at] of codes) if (!thrown.has(errorStatus[code])) thrown.set(errorStatus[code], `${code} at ${at}`);
          operations.push({ ...route, thrown, codes });
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(source);
  }
  return operations;
}

/** The method and path of the `v1Route({...})` an expression names. */
function routeConfig(checker: ts.TypeChecker, expr: ts.Expression): { method: string; path: string } | null {
  let symbol = checker.getSymbolAtLocation(expr);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const decl = symbol?.declarations?.find(ts.isVariableDeclaration);
  const call = decl?.initializer;
  if (!call || !ts.isCallExpression(call) || !call.arguments[0] || !ts.isObjectLiteralExpression(call.arguments[0])) return null;
  const field = (name: string) => {
    const prop = (call.arguments[0] as ts.ObjectLiteralExpression).properties.find(
      (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name,
    );
    return prop && ts.isStringLiteralLike(prop.initializer) ? prop.initializer.text : null;
  };
  const method = field('method');
  const routePath = field('path');
  return method && routePath ? { method: method.toUpperCase(), path: routePath } : null;
}
