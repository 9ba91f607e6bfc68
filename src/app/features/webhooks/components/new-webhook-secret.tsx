import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { CopyField } from '../../../components/copy-field';
import { verifySnippet } from '../utils/verify-snippet';
import { CodeBlock } from './code-block';

interface NewWebhookSecretProps {
  title: string;
  secret: string;
  onDone: () => void;
  /** E.g. a link to the endpoint, next to Done. */
  actions?: ReactNode;
}

/** A signing secret, shown this once (after creating or rotating), with the code that checks it. */
export function NewWebhookSecret({ title, secret, onDone, actions }: NewWebhookSecretProps) {
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
        Copy the signing secret now and keep it with your receiver. It won’t be shown again.
      </p>
      <CopyField label="Signing secret" value={secret} describedBy={warningId} />
      <div className="space-y-2 text-sm text-zinc-700 dark:text-zinc-300">
        <h3 className="font-medium text-zinc-900 dark:text-zinc-100">Verify each delivery</h3>
        <p>
          Every request carries <code>Service-Signature: t=…,v1=…</code>: <code>v1</code> is the hex HMAC-SHA256, keyed with this secret,
          of <code>t</code>, a dot and the raw request body. Compute it over the body exactly as received, compare in constant time, and
          refuse a <code>t</code> more than five minutes old.
        </p>
      </div>
      <CodeBlock label="Verify a signature (Node.js)" code={verifySnippet} />
      <div className="flex flex-wrap gap-3">
        <Button onClick={onDone}>Done</Button>
        {actions}
      </div>
    </Card>
  );
}
