import { useId } from 'react';
import type { Collection, CollectionVisibility } from '../../../../../contract/collections';
import { CopyField } from '../../../../components/copy-field';
import { QrCode } from '../../../../components/qr-code';

const whoCanOpen: Record<CollectionVisibility, string> = {
  public: 'Anyone who has this link can open the collection and download its files. Share it only with people you mean to.',
  password: 'Anyone who has this link and the password can open the collection and download its files. Send the password another way.',
  private: 'Only invited guests can open the collection; anyone else who has the link is asked to sign in and turned away.',
};

/** The collection's secret link, to copy or to scan, and who it lets in. */
export function SecretLink({ collection }: { collection: Pick<Collection, 'url' | 'visibility' | 'title'> }) {
  const warningId = useId();
  if (!collection.url) return <p className="text-sm text-zinc-600 dark:text-zinc-400">This collection has no link.</p>;
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
      <div className="min-w-0 flex-1 space-y-2">
        <CopyField label="Secret link" value={collection.url} describedBy={warningId} />
        <p id={warningId} className="text-xs text-zinc-600 dark:text-zinc-400">
          {whoCanOpen[collection.visibility]}
        </p>
        <a
          href={collection.url}
          target="_blank"
          rel="noreferrer"
          className="inline-block text-sm font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-400"
        >
          Open the collection page<span className="sr-only"> (opens in a new tab)</span>
        </a>
      </div>
      <div className="self-center sm:self-start">
        <QrCode value={collection.url} label={`QR code of the link to ${collection.title}`} size={132} />
      </div>
    </div>
  );
}
