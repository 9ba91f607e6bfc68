import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { v1App } from '../api/v1/index.js';
import { tools } from './tools.js';

/** docs/mcp.md is what people connecting an assistant read: its tool table must be the server's tools, with their true scopes. */
describe('docs/mcp.md', () => {
  it('lists every tool with its operation and the scope it needs, and no tool that does not exist', () => {
    v1App();
    const doc = fs.readFileSync(new URL('../../../docs/mcp.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| [^|]+ \| `([A-Z]+) ([^`]+)` \| ([^|]+) \|$/gm)].map(([, name, method, path, scope]) => ({ name, operation: `${method} ${path}`, scope: scope!.trim() }));
    const expected = tools().map((t) => ({
      name: t.name,
      operation: `${t.operation.method} /api/v1${t.operation.path}`,
      scope: t.operation.scope === 'any' ? 'any' : `\`${t.operation.scope}\``,
    }));
    expect(rows).toEqual(expected);
  });
});
