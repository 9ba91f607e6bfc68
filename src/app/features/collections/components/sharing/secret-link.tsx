import type { Collection, CollectionVisibility } from '../../../../../contract/collections';
import { readableSlugProblem } from '../../../../../contract/readable-slugs';
import { ShareLink } from '../../../../components/share-link';

const whoCanOpen: Record<CollectionVisibility, string> = {
  public: 'Anyone who has this link can open the collection and download its files. Share it only with people you mean to.',
  password: 'Anyone who has this link and the password can open the collection and download its files. Send the password another way.',
  private: 'Only invited guests can open the collection; anyone else who has the link is asked to sign in and turned away.',
};

/** The collection's secret link, to copy or to scan, and who it lets in. */
export function SecretLink({ collection }: { collection: Pick<Collection, 'url' | 'visibility' | 'title' | 'slug'> }) {
  if (!collection.url) return <p className="text-sm text-zinc-600 dark:text-zinc-400">This collection has no link.</p>;
  return (
    <ShareLink
      label={readableSlugProblem(collection.slug) === null ? 'Collection link' : 'Secret link'}
      url={collection.url}
      description={whoCanOpen[collection.visibility]}
      openLabel="Open the collection page"
      qrLabel={`QR code of the link to ${collection.title}`}
    />
  );
}
