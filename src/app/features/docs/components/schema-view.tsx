import { Link } from '@tanstack/react-router';
import type { IntlShape } from 'react-intl';
import { InlineText } from '../../../components/markdown';
import { useIntl } from '../../../lib/intl';
import { objectShape, propertyRows, refName, resolve, schemaAnchor, typeLabel, type OpenApiDocument, type SchemaObject } from '../utils/openapi';

const cellClass = 'px-3 py-2 align-top';

/** Bounds keep the document's own numbers (`≤ 1000000`, as in the schema); counts of items are words. */
function constraints(schema: SchemaObject, intl: IntlShape): string[] {
  const notes: string[] = [];
  if (schema.minLength !== undefined) {
    notes.push(intl.formatMessage({ id: 'docs.schema.minLength', defaultMessage: 'min length {value}' }, { value: String(schema.minLength) }));
  }
  if (schema.maxLength !== undefined) {
    notes.push(intl.formatMessage({ id: 'docs.schema.maxLength', defaultMessage: 'max length {value}' }, { value: String(schema.maxLength) }));
  }
  if (schema.minimum !== undefined) notes.push(intl.formatMessage({ id: 'docs.schema.minimum', defaultMessage: '≥ {value}' }, { value: String(schema.minimum) }));
  if (schema.maximum !== undefined) notes.push(intl.formatMessage({ id: 'docs.schema.maximum', defaultMessage: '≤ {value}' }, { value: String(schema.maximum) }));
  if (schema.minItems !== undefined) {
    notes.push(
      intl.formatMessage({ id: 'docs.schema.minItems', defaultMessage: 'at least {count, plural, one {# item} other {# items}}' }, { count: schema.minItems }),
    );
  }
  if (schema.maxItems !== undefined) {
    notes.push(
      intl.formatMessage({ id: 'docs.schema.maxItems', defaultMessage: 'at most {count, plural, one {# item} other {# items}}' }, { count: schema.maxItems }),
    );
  }
  if (schema.pattern !== undefined) notes.push(intl.formatMessage({ id: 'docs.schema.pattern', defaultMessage: 'pattern {pattern}' }, { pattern: schema.pattern }));
  return notes;
}

/** Description, allowed values, constraints, default and example of one schema. */
export function SchemaNotes({ schema }: { schema: SchemaObject }) {
  const intl = useIntl();
  const limits = constraints(schema, intl);
  return (
    <div className="space-y-1">
      {schema.description ? (
        <p className="whitespace-pre-line">
          <InlineText text={schema.description} />
        </p>
      ) : null}
      {schema.enum ? (
        <p>
          {intl.formatMessage(
            { id: 'docs.schema.oneOf', defaultMessage: 'One of: {values}' },
            {
              values: intl.formatList(
                schema.enum.map((value, index) => <code key={index}>{JSON.stringify(value)}</code>),
                { type: 'unit', style: 'short' },
              ),
            },
          )}
        </p>
      ) : null}
      {limits.length ? <p className="text-zinc-500 dark:text-zinc-400">{intl.formatList(limits, { type: 'unit', style: 'short' })}</p> : null}
      {schema.default !== undefined ? (
        <p>
          {intl.formatMessage({ id: 'docs.schema.default', defaultMessage: 'Default: {value}' }, { value: <code key="value">{JSON.stringify(schema.default)}</code> })}
        </p>
      ) : null}
      {schema.example !== undefined && typeof schema.example !== 'object' ? (
        <p className="text-zinc-500 dark:text-zinc-400">
          {intl.formatMessage(
            { id: 'docs.schema.example', defaultMessage: 'Example: {value}' },
            {
              value: (
                <code key="value" className="break-all">
                  {JSON.stringify(schema.example)}
                </code>
              ),
            },
          )}
        </p>
      ) : null}
    </div>
  );
}

/** A link to a named schema's section, in a sentence. */
function schemaLink(name: string) {
  return (
    <Link
      key="name"
      to="/docs/api"
      hash={schemaAnchor(name)}
      className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
    >
      <code>{name}</code>
    </Link>
  );
}

/** A schema as a type line plus, for objects, a nested property table. */
export function SchemaView({ doc, schema }: { doc: OpenApiDocument; schema: SchemaObject | undefined }) {
  const intl = useIntl();
  if (!schema) return null;
  const name = schema.$ref ? refName(schema.$ref) : undefined;
  const resolved = resolve<SchemaObject>(doc, schema);
  const rows = propertyRows(doc, schema);
  const isObject = objectShape(doc, schema) !== undefined;
  return (
    <div className="space-y-2">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        {name
          ? isObject
            ? intl.formatMessage({ id: 'docs.schema.named', defaultMessage: 'Schema {name}' }, { name: schemaLink(name) })
            : intl.formatMessage(
                { id: 'docs.schema.namedWithType', defaultMessage: 'Schema {name}: {type}' },
                { name: schemaLink(name), type: <code key="type">{typeLabel(doc, resolved)}</code> },
              )
          : intl.formatMessage({ id: 'docs.schema.type', defaultMessage: 'Type {type}' }, { type: <code key="type">{typeLabel(doc, schema)}</code> })}
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
  const intl = useIntl();
  return (
    <div className="overflow-x-auto rounded-md border border-zinc-200 dark:border-zinc-800">
      <table className="w-full min-w-[32rem] text-start text-sm">
        <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
          <tr>
            <th scope="col" className={cellClass}>
              {intl.formatMessage({ id: 'docs.schema.property', defaultMessage: 'Property' })}
            </th>
            <th scope="col" className={cellClass}>
              {intl.formatMessage({ id: 'docs.schema.typeColumn', defaultMessage: 'Type' })}
            </th>
            <th scope="col" className={cellClass}>
              {intl.formatMessage({ id: 'docs.schema.description', defaultMessage: 'Description' })}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {rows.map((row) => (
            <tr key={row.path}>
              <th scope="row" className={`${cellClass} font-normal`}>
                <span style={{ paddingInlineStart: `${row.depth * 1}rem` }} className="inline-block">
                  <code className="font-medium text-zinc-900 dark:text-zinc-100">
                    {row.depth > 0 ? <span className="text-zinc-400 dark:text-zinc-500">{row.path.slice(0, -row.name.length)}</span> : null}
                    {row.name}
                  </code>
                  {row.required ? (
                    <span className="ms-1.5 text-xs font-medium text-red-700 dark:text-red-400">
                      {intl.formatMessage({ id: 'docs.schema.required', defaultMessage: 'required' })}
                    </span>
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
