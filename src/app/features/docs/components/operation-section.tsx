import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Badge } from '../../../components/badge';
import { InlineText, MarkdownText } from '../../../components/markdown';
import { useIntl } from '../../../lib/intl';
import { reasonPhrase } from '../../../lib/http-status';
import {
  describeAccess,
  refName,
  resolve,
  schemaAnchor,
  typeLabel,
  type ListedOperation,
  type OpenApiDocument,
  type RequestBody,
  type ResponseObject,
  type SchemaObject,
} from '../utils/openapi';
import { SchemaNotes, SchemaView } from './schema-view';

const methodTones: Record<string, string> = {
  get: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  post: 'bg-indigo-100 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-300',
  put: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
  patch: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
  delete: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
};

export function MethodBadge({ method }: { method: string }) {
  return (
    <span
      className={`inline-block w-16 shrink-0 rounded px-1.5 py-0.5 text-center font-mono text-xs font-semibold uppercase ${methodTones[method] ?? 'bg-zinc-100 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200'}`}
    >
      {method}
    </span>
  );
}

function SubHeading({ children }: { children: ReactNode }) {
  return <h4 className="mb-2 text-sm font-semibold text-zinc-900 dark:text-zinc-100">{children}</h4>;
}

const cellClass = 'px-3 py-2 align-top';

/** The badge beside a name that must be given. */
function RequiredMark() {
  const intl = useIntl();
  return (
    <span className="ms-1.5 text-xs font-medium text-red-700 dark:text-red-400">
      {intl.formatMessage({ id: 'docs.operation.required', defaultMessage: 'required' })}
    </span>
  );
}

export function OperationSection({ doc, listed }: { doc: OpenApiDocument; listed: ListedOperation }) {
  const intl = useIntl();
  const { operation, method, path, parameters, id } = listed;
  const access = describeAccess(doc, operation, intl);
  // With no summary, the operation is named as HTTP writes it.
  const name = operation.summary ?? `${method.toUpperCase()} ${path}`;
  const plan = operation['x-plan'];
  const body = resolve<RequestBody>(doc, operation.requestBody);
  const responses = Object.entries(operation.responses ?? {});

  return (
    <article id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20 border-t border-zinc-200 pt-8 dark:border-zinc-800">
      <h3 id={`${id}-title`} className="text-lg font-semibold">
        {name}
        {operation.deprecated ? (
          <span className="ms-2 align-middle">
            <Badge tone="warning">{intl.formatMessage({ id: 'docs.operation.deprecated', defaultMessage: 'Deprecated' })}</Badge>
          </span>
        ) : null}
      </h3>
      <p className="mt-2 flex items-center gap-2 overflow-x-auto">
        <MethodBadge method={method} />
        <code className="text-sm font-medium break-all">{path}</code>
      </p>
      <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <div className="flex gap-1.5">
          <dt className="text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'docs.operation.requiredScope', defaultMessage: 'Required scope' })}</dt>
          <dd>
            <code>{access.scope}</code>
          </dd>
        </div>
        {plan ? (
          <div className="flex gap-1.5">
            <dt className="text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'docs.operation.plan', defaultMessage: 'Plan' })}</dt>
            <dd>
              {plan === 'paid' ? (
                <Badge tone="warning">{intl.formatMessage({ id: 'docs.operation.paidPlan', defaultMessage: 'Paid plan' })}</Badge>
              ) : (
                <Badge>{intl.formatMessage({ id: 'docs.operation.freePlan', defaultMessage: 'Free plan allowed' })}</Badge>
              )}
            </dd>
          </div>
        ) : null}
        {operation.operationId ? (
          <div className="flex gap-1.5">
            <dt className="text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'docs.operation.operationId', defaultMessage: 'Operation ID' })}</dt>
            <dd>
              <code>{operation.operationId}</code>
            </dd>
          </div>
        ) : null}
      </dl>
      {operation.description ? (
        <div className="mt-4 text-sm text-zinc-700 dark:text-zinc-300">
          <MarkdownText text={operation.description} headingLevel={4} />
        </div>
      ) : null}

      {parameters.length ? (
        <section className="mt-6">
          <SubHeading>{intl.formatMessage({ id: 'docs.operation.parameters', defaultMessage: 'Parameters' })}</SubHeading>
          <div className="overflow-x-auto rounded-md border border-zinc-200 dark:border-zinc-800">
            <table className="w-full min-w-[32rem] text-start text-sm">
              <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
                <tr>
                  <th scope="col" className={cellClass}>
                    {intl.formatMessage({ id: 'docs.operation.name', defaultMessage: 'Name' })}
                  </th>
                  <th scope="col" className={cellClass}>
                    {intl.formatMessage({ id: 'docs.operation.in', defaultMessage: 'In' })}
                  </th>
                  <th scope="col" className={cellClass}>
                    {intl.formatMessage({ id: 'docs.operation.type', defaultMessage: 'Type' })}
                  </th>
                  <th scope="col" className={cellClass}>
                    {intl.formatMessage({ id: 'docs.operation.description', defaultMessage: 'Description' })}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
                {parameters.map((parameter) => (
                  <tr key={`${parameter.in}:${parameter.name}`}>
                    <th scope="row" className={`${cellClass} font-normal`}>
                      <code className="font-medium">{parameter.name}</code>
                      {parameter.required ? <RequiredMark /> : null}
                    </th>
                    <td className={cellClass}>{parameter.in}</td>
                    <td className={cellClass}>
                      <code className="text-xs">{typeLabel(doc, parameter.schema)}</code>
                    </td>
                    <td className={`${cellClass} text-zinc-700 dark:text-zinc-300`}>
                      <SchemaNotes
                        schema={{
                          ...(resolve<SchemaObject>(doc, parameter.schema) ?? {}),
                          description: parameter.description ?? resolve<SchemaObject>(doc, parameter.schema)?.description,
                        }}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}

      {body ? (
        <section className="mt-6">
          <SubHeading>
            {intl.formatMessage({ id: 'docs.operation.requestBody', defaultMessage: 'Request body' })}
            {body.required ? <RequiredMark /> : null}
          </SubHeading>
          {body.description ? (
            <p className="mb-2 text-sm text-zinc-700 dark:text-zinc-300">
              <InlineText text={body.description} />
            </p>
          ) : null}
          {Object.entries(body.content ?? {}).map(([mediaType, media]) => (
            <div key={mediaType} className="space-y-2">
              <p className="text-xs text-zinc-600 dark:text-zinc-400">
                <code>{mediaType}</code>
              </p>
              <SchemaView doc={doc} schema={media.schema} />
            </div>
          ))}
        </section>
      ) : null}

      {responses.length ? (
        <section className="mt-6">
          <SubHeading>{intl.formatMessage({ id: 'docs.operation.responses', defaultMessage: 'Responses' })}</SubHeading>
          <ul className="divide-y divide-zinc-200 rounded-md border border-zinc-200 text-sm dark:divide-zinc-800 dark:border-zinc-800">
            {responses.map(([status, value]) => (
              <ResponseItem key={status} doc={doc} status={status} response={resolve<ResponseObject>(doc, value)} />
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}

function ResponseItem({ doc, status, response }: { doc: OpenApiDocument; status: string; response: ResponseObject | undefined }) {
  const success = status.startsWith('2');
  const media = Object.entries(response?.content ?? {});
  const schemaRefs = [...new Set(media.map(([, m]) => m.schema?.$ref).filter((ref) => ref !== undefined))];
  return (
    <li className="px-3 py-2">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span
          className={`font-mono text-sm font-semibold ${success ? 'text-emerald-700 dark:text-emerald-400' : 'text-zinc-700 dark:text-zinc-300'}`}
        >
          {status}
          <span className="sr-only"> {reasonPhrase(status)}</span>
        </span>
        <span className="min-w-0 flex-1 text-zinc-700 dark:text-zinc-300">
          {response?.description ? <InlineText text={response.description} /> : reasonPhrase(status)}
        </span>
        {!success && schemaRefs.length
          ? schemaRefs.map((ref) => (
              <Link
                key={ref}
                to="/docs/api"
                hash={schemaAnchor(refName(ref))}
                className="text-xs text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
              >
                {refName(ref)}
              </Link>
            ))
          : null}
      </div>
      {success && media.length ? (
        <div className="mt-3 space-y-3">
          {media.map(([mediaType, m]) => (
            <div key={mediaType} className="space-y-2">
              <p className="text-xs text-zinc-600 dark:text-zinc-400">
                <code>{mediaType}</code>
              </p>
              <SchemaView doc={doc} schema={m.schema} />
            </div>
          ))}
        </div>
      ) : null}
    </li>
  );
}
