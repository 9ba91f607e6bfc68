import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { CopyField } from '../../../components/copy-field';
import { useIntl } from '../../../lib/intl';
import { verifySnippet } from '../utils/verify-snippet';
import { CodeBlock } from './code-block';

/** The signature header and its fields: the API's words, shown as code and never translated. */
const SIGNATURE_HEADER = 'Service-Signature: t=…,v1=…';
const SIGNATURE_FIELD = 'v1';
const TIMESTAMP_FIELD = 't';

interface NewWebhookSecretProps {
  /** A message: it may hold an untrusted name in a `<bdi>`. */
  title: ReactNode;
  secret: string;
  onDone: () => void;
  /** E.g. a link to the endpoint, next to Done. */
  actions?: ReactNode;
}

/** A signing secret, shown this once (after creating or rotating), with the code that checks it. */
export function NewWebhookSecret({ title, secret, onDone, actions }: NewWebhookSecretProps) {
  const intl = useIntl();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  const warningId = useId();
  useEffect(() => headingRef.current?.focus(), []);

  return (
    <Card aria-labelledby={headingId} className="space-y-4">
      <h2 id={headingId} ref={headingRef} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
        {title}
      </h2>
      <p
        id={warningId}
        className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-200"
      >
        {intl.formatMessage({
          id: 'webhooks.newSecret.warning',
          defaultMessage: 'Copy the signing secret now and keep it with your receiver. It won’t be shown again.',
        })}
      </p>
      <CopyField
        label={intl.formatMessage({ id: 'webhooks.newSecret.secretLabel', defaultMessage: 'Signing secret' })}
        value={secret}
        describedBy={warningId}
      />
      <div className="space-y-2 text-sm text-zinc-700 dark:text-zinc-300">
        <h3 className="font-medium text-zinc-900 dark:text-zinc-100">
          {intl.formatMessage({ id: 'webhooks.newSecret.verifyHeading', defaultMessage: 'Verify each delivery' })}
        </h3>
        <p>
          {intl.formatMessage(
            {
              id: 'webhooks.newSecret.verifyExplanation',
              defaultMessage:
                'Every request carries {header}: {v1} is the hex HMAC-SHA256, keyed with this secret, of {t}, a dot and the raw request body. Compute it over the body exactly as received, compare in constant time, and refuse a {t} more than five minutes old.',
            },
            {
              header: <code key="header">{SIGNATURE_HEADER}</code>,
              v1: <code key="v1">{SIGNATURE_FIELD}</code>,
              t: <code key="t">{TIMESTAMP_FIELD}</code>,
            },
          )}
        </p>
      </div>
      <CodeBlock label={intl.formatMessage({ id: 'webhooks.newSecret.snippetLabel', defaultMessage: 'Verify a signature (Node.js)' })} code={verifySnippet} />
      <div className="flex flex-wrap gap-3">
        <Button onClick={onDone}>{intl.formatMessage({ id: 'webhooks.newSecret.done', defaultMessage: 'Done' })}</Button>
        {actions}
      </div>
    </Card>
  );
}
