import { useId, type ReactNode } from 'react';
import type { Collection } from '../../../../../contract/collections';
import { CopyField } from '../../../../components/copy-field';
import { FormError } from '../../../../components/form-error';
import { useIntl } from '../../../../lib/intl';
import { useWorkspaceDomain } from '../../../../lib/me';
import { useUpdateCollection } from '../../api/update-collection';

/** The address a collection has on the workspace's own domain while its custom link is on. */
export const customLinkAddress = (domain: string, slug: string) => `https://${domain}/${slug}`;

/** The operator's command that sets a workspace's domain: code, never translated. */
const SET_DOMAIN_COMMAND = 'npm run admin -- domain set';

/** An address inside a sentence: set in monospace, isolated (`dir`) so that it reads left to right in any language. */
const mono = (chunks: ReactNode[]) => (
  <span key="mono" dir="ltr" className="font-mono">
    {chunks}
  </span>
);

/**
 * The custom-link switch. Without a workspace domain there is nothing to switch on (a collection
 * switched on before the domain was cleared can still be switched off).
 */
export function CustomLink({ collection }: { collection: Pick<Collection, 'id' | 'slug' | 'customLink'> }) {
  const intl = useIntl();
  const domain = useWorkspaceDomain();
  const update = useUpdateCollection(collection.id);
  const labelId = useId();
  const descriptionId = useId();
  const on = collection.customLink;
  const address = domain ? customLinkAddress(domain, collection.slug) : null;
  const unavailable = !domain && !on;

  return (
    <div className="space-y-3">
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <p id={labelId} className="text-sm font-medium">
            {intl.formatMessage({ id: 'collections.customLink.label', defaultMessage: 'Custom link' })}
          </p>
          <p id={descriptionId} className="mt-0.5 text-xs break-words text-zinc-600 dark:text-zinc-400">
            {address
              ? intl.formatMessage(
                  { id: 'collections.customLink.on', defaultMessage: 'Also serve this collection at <mono>{address}</mono>, on your workspace’s own domain.' },
                  { address, mono },
                )
              : intl.formatMessage(
                  {
                    id: 'collections.customLink.needsDomain',
                    defaultMessage:
                      'Needs a domain for your workspace, which the server’s operator sets with <code>{command}</code>. The collection is then also served at <mono>{example}</mono>.',
                  },
                  {
                    command: SET_DOMAIN_COMMAND,
                    example: customLinkAddress(`<${intl.formatMessage({ id: 'collections.customLink.yourDomain', defaultMessage: 'your domain' })}>`, collection.slug),
                    code: (chunks: ReactNode[]) => <code key="code">{chunks}</code>,
                    mono,
                  },
                )}
          </p>
        </div>
        <Switch
          on={on}
          labelledBy={labelId}
          describedBy={descriptionId}
          disabled={unavailable || update.isPending}
          onToggle={() => update.mutate({ customLink: !on })}
        />
      </div>
      {update.error ? <FormError error={update.error} /> : null}
      {on && address ? (
        <CopyField label={intl.formatMessage({ id: 'collections.customLink.addressLabel', defaultMessage: 'Custom link address' })} value={address} />
      ) : null}
    </div>
  );
}

function Switch({
  on,
  labelledBy,
  describedBy,
  disabled,
  onToggle,
}: {
  on: boolean;
  labelledBy: string;
  describedBy: string;
  disabled: boolean;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      disabled={disabled}
      onClick={onToggle}
      className="group relative inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-zinc-300 transition-colors aria-checked:bg-indigo-600 disabled:cursor-not-allowed disabled:opacity-50 dark:bg-zinc-700 dark:aria-checked:bg-indigo-500"
    >
      <span
        aria-hidden="true"
        className="inline-block size-5 translate-x-0.5 rounded-full bg-white shadow-sm transition-transform group-aria-checked:translate-x-5.5"
      />
    </button>
  );
}
