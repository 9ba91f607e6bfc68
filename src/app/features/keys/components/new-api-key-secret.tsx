import { useEffect, useId, useRef } from 'react';
import type { CreateApiKeyResponse } from '../../../../contract/dashboard';
import { Button } from '../../../components/button';
import { CopyField } from '../../../components/copy-field';
import { useIntl } from '../../../lib/intl';

/** The new key's secret, shown this once: the server keeps only a hash. */
export function NewApiKeySecret({ created, onDone }: { created: CreateApiKeyResponse; onDone: () => void }) {
  const intl = useIntl();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const warningId = useId();
  useEffect(() => headingRef.current?.focus(), []);

  return (
    <div className="space-y-4">
      <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
        {intl.formatMessage(
          { id: 'keys.newSecret.heading', defaultMessage: 'Key “{name}” created' },
          { name: <bdi key="name">{created.key.name}</bdi> },
        )}
      </h2>
      <p
        id={warningId}
        className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-200"
      >
        {intl.formatMessage({
          id: 'keys.newSecret.warning',
          defaultMessage: 'Copy the key now and keep it somewhere safe. It won’t be shown again: Parcel keeps only a hash of it.',
        })}
      </p>
      <CopyField label={intl.formatMessage({ id: 'keys.newSecret.secretLabel', defaultMessage: 'Secret key' })} value={created.secret} describedBy={warningId} />
      <Button onClick={onDone}>{intl.formatMessage({ id: 'keys.newSecret.done', defaultMessage: 'Done' })}</Button>
    </div>
  );
}
