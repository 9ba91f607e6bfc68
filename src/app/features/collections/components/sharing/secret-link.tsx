import { defineMessages } from 'react-intl';
import type { Collection, CollectionVisibility } from '../../../../../contract/collections';
import { readableSlugProblem } from '../../../../../contract/readable-slugs';
import { ShareLink } from '../../../../components/share-link';
import { useIntl } from '../../../../lib/intl';

const whoCanOpen = defineMessages<CollectionVisibility>({
  public: {
    id: 'collections.secretLink.public',
    defaultMessage: 'Anyone who has this link can open the collection and download its files. Share it only with people you mean to.',
  },
  password: {
    id: 'collections.secretLink.password',
    defaultMessage: 'Anyone who has this link and the password can open the collection and download its files. Send the password another way.',
  },
  private: {
    id: 'collections.secretLink.private',
    defaultMessage: 'Only invited guests can open the collection; anyone else who has the link is asked to sign in and turned away.',
  },
});

/** The collection's secret link, to copy or to scan, and who it lets in. */
export function SecretLink({ collection }: { collection: Pick<Collection, 'url' | 'visibility' | 'title' | 'slug'> }) {
  const intl = useIntl();
  if (!collection.url)
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'collections.secretLink.none', defaultMessage: 'This collection has no link.' })}</p>;
  return (
    <ShareLink
      label={
        readableSlugProblem(collection.slug) === null
          ? intl.formatMessage({ id: 'collections.secretLink.readableLabel', defaultMessage: 'Collection link' })
          : intl.formatMessage({ id: 'collections.secretLink.label', defaultMessage: 'Secret link' })
      }
      url={collection.url}
      description={intl.formatMessage(whoCanOpen[collection.visibility])}
      openLabel={intl.formatMessage({ id: 'collections.secretLink.open', defaultMessage: 'Open the collection page' })}
      qrLabel={intl.formatMessage({ id: 'collections.secretLink.qr', defaultMessage: 'QR code of the link to {title}' }, { title: collection.title })}
    />
  );
}
