import { Link } from '@tanstack/react-router';
import { InlineText } from '../../../components/markdown';
import { objectShape, propertyRows, refName, resolve, schemaAnchor, typeLabel, type OpenApiDocument, type SchemaObject } from '../utils/openapi';

const cellClass = 'px-3 py-2 align-top';

function constraints(schema: SchemaObject): string[] {
  const notes: string[] = [];
  if (schema.minLength !== undefined) notes.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) notes.push(`max length ${schema.maxLength}`);
  if (schema.minimum !== undefined) notes.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) notes.push(`≤ ${schema.maximum}`);
  if (schema.minItems !== undefined) notes.push(`at least ${schema.minItems} items`);
  if (schema.maxItems !== undefined) notes.push(`at most ${schema.maxItems} items`);
  if (schema.pattern !== undefined) notes.push(`pattern ${schema.pattern}`);
  return notes;
}

/** Description, allowed values, constraints, default and example of one schema. */
export function SchemaNotes({ schema }: { schema: SchemaObject }) {
  const limits = constraints(schema);
  return (
    <div className="space-y-1">
      {schema.description ? (
        <p className="whitespace-pre-line">
          <InlineText text={schema.description} />
        </p>
      ) : null}
      {schema.enum ? (
        <p>
          One of:{' '}
          {schema.enum.map((value, index) => (
            <span key={index}>
              {index > 0 ? ', ' : null}
              <code>{JSON.stringify(value)}</code>
            </span>
          ))}
        </p>
      ) : null}
      {limits.length ? <p className="text-zinc-500 dark:text-zinc-400">{limits.join(', ')}</p> : null}
      {schema.default !== undefined ? (
        <p>
          Default: <code>{JSON.stringify(schema.default)}</code>
        </p>
      ) : null}
      {schema.example !== undefined && typeof schema.example !== 'object' ? (
        <p className="text-zinc-500 dark:text-zinc-400">
          Example: <code className="break-all">{JSON.stringify(schema.example)}</code>
        </p>
      ) : null}
    </div>
  );
}

/** A schema as a type line plus, for objects, a nested property table. */
export function SchemaView({ doc, schema }: { doc: OpenApiDocument; schema: SchemaObject | undefined }) {
  if (!schema) return null;
  const name = schema.$ref ? refName(schema.$ref) : undefined;
  const resolved = resolve<SchemaObject>(doc, schema);
  const rows = propertyRows(doc, schema);
  const isObject = objectShape(doc, schema) !== undefined;
  return (
    <div className="space-y-2">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        {name ? (
          <>
            Schema{' '}
            <Link to="/docs/api" hash={schemaAnchor(name)} className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300">
              <code>{name}</code>
            </Link>
            {isObject ? null : (
              <>
                : <code>{typeLabel(doc, resolved)}</code>
              </>
            )}
          </>
        ) : (
          <>
            Type <code>{typeLabel(doc, schema)}</code>
          </>
        )}
      </p>
      {rows.length ? <PropertyTable rows={rows} /> : null}
      {!rows.length && resolved && !isObject ? (
        <div className="text-sm">
          <SchemaNotes schema={resolved} />
        </div>
      ) : null}
    </div>
  );
}

function PropertyTable({ rows }: { rows: ReturnType<typeof propertyRows> }) {
  return (
    <div className="overflow-x-auto rounded-md border border-zinc-200 dark:border-zinc-800">
      <table className="w-full min-w-[32rem] text-left text-sm">
        <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
          <tr>
            <th scope="col" className={cellClass}>
              Property
            </th>
            <th scope="col" className={cellClass}>
              Type
            </th>
            <th scope="col" className={cellClass}>
              Description
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {rows.map((row) => (
            <tr key={row.path}>
              <th scope="row" className={`${cellClass} font-normal`}>
                <span style={{ paddingLeft: `${row.depth * 1}rem` }} className="inline-block">
                  <code className="font-medium text-zinc-900 dark:text-zinc-100">
                    {row.depth > 0 ? <span className="text-zinc-400 dark:text-zinc-500">{row.path.slice(0, -row.name.length)}</span> : null}
                    {row.name}
                  </code>
                  {row.required ? (
                    <span className="ml-1.5 text-xs font-medium text-red-700 dark:text-red-400">required</span>
                  ) : null}
                </span>
              </th>
              <td className={cellClass}>
                <code className="text-xs text-zinc-700 dark:text-zinc-300">{row.type}</code>
              </td>
              <td className={`${cellClass} text-zinc-700 dark:text-zinc-300`}>
                <SchemaNotes schema={row.schema} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
