import { useId } from 'react';
import type { Collection } from '../../../../../contract/collections';
import { CopyField } from '../../../../components/copy-field';
import { FormError } from '../../../../components/form-error';
import { useWorkspaceDomain } from '../../../../lib/me';
import { useUpdateCollection } from '../../api/update-collection';

/** The address a collection has on the workspace's own domain while its custom link is on. */
export const customLinkAddress = (domain: string, slug: string) => `https://${domain}/${slug}`;

/**
 * The custom-link switch. Without a workspace domain there is nothing to switch on (a collection
 * switched on before the domain was cleared can still be switched off).
 */
export function CustomLink({ collection }: { collection: Pick<Collection, 'id' | 'slug' | 'customLink'> }) {
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
            Custom link
          </p>
          <p id={descriptionId} className="mt-0.5 text-xs break-words text-zinc-600 dark:text-zinc-400">
            {address ? (
              <>
                Also serve this collection at <span className="font-mono">{address}</span>, on your workspace’s own domain.
              </>
            ) : (
              <>
                Needs a domain for your workspace, which the server’s operator sets with <code>npm run admin -- domain set</code>. The collection is then also
                served at <span className="font-mono">https://&lt;your domain&gt;/{collection.slug}</span>.
              </>
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
      {on && address ? <CopyField label="Custom link address" value={address} /> : null}
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
