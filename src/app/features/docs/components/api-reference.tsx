import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { buttonClass } from '../../../components/button';
import { InlineText, MarkdownText } from '../../../components/markdown';
import { useIntl } from '../../../lib/intl';
import { openApiDocumentQueryOptions, openApiDocumentUrl } from '../api/get-openapi-document';
import { groupByTag, listOperations, schemaAnchor, tagAnchor, type TagGroup } from '../utils/openapi';
import { MethodBadge, OperationSection } from './operation-section';
import { SchemaView } from './schema-view';

const sidebarLinkClass =
  'flex items-center gap-2 rounded px-2 py-1 text-sm text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800';

/** The API reference, rendered from the OpenAPI document the server publishes. */
export function ApiReference() {
  const intl = useIntl();
  const { data: doc } = useSuspenseQuery(openApiDocumentQueryOptions());
  const groups = useMemo(() => groupByTag(doc, listOperations(doc)), [doc]);
  const schemas = Object.entries(doc.components?.schemas ?? {});
  const securitySchemes = Object.entries(doc.components?.securitySchemes ?? {});
  const title = doc.info?.title ?? intl.formatMessage({ id: 'docs.reference.title', defaultMessage: 'API reference' });
  const introduction = intl.formatMessage({ id: 'docs.reference.introduction', defaultMessage: 'Introduction' });
  const schemasHeading = intl.formatMessage({ id: 'docs.reference.schemas', defaultMessage: 'Schemas' });
  const groupName = (group: TagGroup) => (group.untagged ? intl.formatMessage({ id: 'docs.reference.otherTag', defaultMessage: 'Other' }) : group.name);

  return (
    <div className="lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-10">
      <nav
        aria-label={intl.formatMessage({ id: 'docs.reference.contents', defaultMessage: 'API reference contents' })}
        className="mb-8 max-h-72 overflow-y-auto rounded-lg border border-zinc-200 p-3 lg:sticky lg:top-20 lg:mb-0 lg:max-h-[calc(100dvh-6rem)] lg:self-start lg:border-0 lg:p-0 dark:border-zinc-800"
      >
        <ul className="space-y-4">
          <li>
            <Link to="/docs/api" hash="introduction" className={`${sidebarLinkClass} font-semibold`}>
              {introduction}
            </Link>
          </li>
          {groups.map((group) => (
            <li key={group.name}>
              <Link to="/docs/api" hash={tagAnchor(group.name)} className={`${sidebarLinkClass} font-semibold`}>
                {groupName(group)}
              </Link>
              <ul className="mt-1 space-y-0.5">
                {group.operations.map((listed) => (
                  <li key={listed.id}>
                    <Link to="/docs/api" hash={listed.id} className={sidebarLinkClass}>
                      <MethodBadge method={listed.method} />
                      <span className="min-w-0 truncate">{listed.operation.summary ?? listed.path}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </li>
          ))}
          {schemas.length ? (
            <li>
              <Link to="/docs/api" hash="schemas" className={`${sidebarLinkClass} font-semibold`}>
                {schemasHeading}
              </Link>
              <ul className="mt-1 space-y-0.5">
                {schemas.map(([name]) => (
                  <li key={name}>
                    <Link to="/docs/api" hash={schemaAnchor(name)} className={sidebarLinkClass}>
                      <code>{name}</code>
                    </Link>
                  </li>
                ))}
              </ul>
            </li>
          ) : null}
        </ul>
      </nav>

      <div className="min-w-0 space-y-12">
        <section id="introduction" aria-labelledby="introduction-title" className="scroll-mt-20">
          <div className="flex flex-wrap items-start justify-between gap-4">
            <div>
              <h1 className="text-3xl font-semibold tracking-tight">{title}</h1>
              {doc.info?.version ? (
                <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
                  {doc.openapi
                    ? intl.formatMessage(
                        { id: 'docs.reference.versionOpenApi', defaultMessage: 'Version {version} · OpenAPI {openapi}' },
                        { version: doc.info.version, openapi: doc.openapi },
                      )
                    : intl.formatMessage({ id: 'docs.reference.version', defaultMessage: 'Version {version}' }, { version: doc.info.version })}
                </p>
              ) : null}
            </div>
            <a href={openApiDocumentUrl} download="openapi.json" className={buttonClass('secondary')}>
              {intl.formatMessage({ id: 'docs.reference.download', defaultMessage: 'Download openapi.json' })}
            </a>
          </div>
          <h2 id="introduction-title" className="sr-only">
            {introduction}
          </h2>
          {doc.servers?.length ? (
            <p className="mt-4 text-sm">
              {intl.formatMessage(
                { id: 'docs.reference.baseUrl', defaultMessage: 'Base URL: {url}' },
                {
                  url: (
                    <code key="url" className="break-all">
                      {doc.servers[0]?.url}
                    </code>
                  ),
                },
              )}
            </p>
          ) : null}
          {doc.info?.description ? (
            <div className="mt-6 max-w-3xl text-sm leading-6 text-zinc-700 dark:text-zinc-300">
              <MarkdownText text={doc.info.description} headingLevel={2} />
            </div>
          ) : null}
          {securitySchemes.length ? (
            <div className="mt-6 max-w-3xl text-sm text-zinc-700 dark:text-zinc-300">
              <h3 className="pt-2 text-base font-semibold text-zinc-900 dark:text-zinc-100">
                {intl.formatMessage({ id: 'docs.reference.credentials', defaultMessage: 'Credentials' })}
              </h3>
              <ul className="mt-2 space-y-2">
                {securitySchemes.map(([name, scheme]) => {
                  const code = <code key="name">{name}</code>;
                  // The scheme's type and name are OpenAPI's words (`http bearer`), as the document has them.
                  const credential = scheme.scheme
                    ? intl.formatMessage(
                        { id: 'docs.reference.credentialScheme', defaultMessage: '{name} ({type} {scheme})' },
                        { name: code, type: scheme.type ?? 'http', scheme: scheme.scheme },
                      )
                    : code;
                  return (
                    <li key={name}>
                      {scheme.description
                        ? intl.formatMessage(
                            { id: 'docs.reference.credentialDescribed', defaultMessage: '{credential}: {description}' },
                            { credential, description: <InlineText key="description" text={scheme.description} /> },
                          )
                        : credential}
                    </li>
                  );
                })}
              </ul>
            </div>
          ) : null}
        </section>

        {groups.map((group) => (
          <section key={group.name} id={tagAnchor(group.name)} aria-labelledby={`${tagAnchor(group.name)}-title`} className="scroll-mt-20">
            <h2 id={`${tagAnchor(group.name)}-title`} className="text-2xl font-semibold tracking-tight">
              {groupName(group)}
            </h2>
            {group.description ? (
              <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
                <InlineText text={group.description} />
              </p>
            ) : null}
            <div className="mt-6 space-y-10">
              {group.operations.map((listed) => (
                <OperationSection key={listed.id} doc={doc} listed={listed} />
              ))}
            </div>
          </section>
        ))}

        {schemas.length ? (
          <section id="schemas" aria-labelledby="schemas-title" className="scroll-mt-20">
            <h2 id="schemas-title" className="text-2xl font-semibold tracking-tight">
              {schemasHeading}
            </h2>
            <div className="mt-6 space-y-10">
              {schemas.map(([name, schema]) => (
                <section
                  key={name}
                  id={schemaAnchor(name)}
                  aria-labelledby={`${schemaAnchor(name)}-title`}
                  className="scroll-mt-20 border-t border-zinc-200 pt-6 dark:border-zinc-800"
                >
                  <h3 id={`${schemaAnchor(name)}-title`} className="text-lg font-semibold">
                    {intl.formatMessage(
                      { id: 'docs.reference.schemaHeading', defaultMessage: '<hidden>Schema </hidden>{name}' },
                      {
                        name: <code key="name">{name}</code>,
                        hidden: (chunks) => (
                          <span key="hidden" className="sr-only">
                            {chunks}
                          </span>
                        ),
                      },
                    )}
                  </h3>
                  {schema.description ? (
                    <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
                      <InlineText text={schema.description} />
                    </p>
                  ) : null}
                  <div className="mt-3">
                    <SchemaView doc={doc} schema={{ ...schema, description: undefined }} />
                  </div>
                </section>
              ))}
            </div>
          </section>
        ) : null}
      </div>
    </div>
  );
}
