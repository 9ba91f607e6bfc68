import { QueryErrorResetBoundary } from '@tanstack/react-query';
import { Suspense, useCallback, useRef, type ReactNode, type Ref } from 'react';
import type { Collection } from '../../../../../contract/collections';
import { ModalDialog } from '../../../../components/modal-dialog';
import { QueryErrorBoundary } from '../../../../components/query-error-boundary';
import { SkeletonList } from '../../../../components/skeleton';
import { useIntl } from '../../../../lib/intl';
import { CustomLink } from './custom-link';
import { GuestList } from './guest-list';
import { InviteGuestsForm } from './invite-guests-form';
import { ReadableLink } from './readable-link';
import { SecretLink } from './secret-link';
import { VisibilitySection } from './visibility-section';

interface ShareCollectionDialogProps {
  /** The cached collection (`useCollection`): the dialog's changes update that cache, and so what it shows. */
  collection: Collection;
  open: boolean;
  onClose: () => void;
}

/** Who can open a collection and how: its visibility, the secret link, the custom link and its guests. */
export function ShareCollectionDialog({ collection, open, onClose }: ShareCollectionDialogProps) {
  const intl = useIntl();
  const guestsHeading = useRef<HTMLHeadingElement>(null);
  const focusGuests = useCallback(() => guestsHeading.current?.focus(), []);
  if (!open) return null;
  return (
    <ModalDialog
      title={intl.formatMessage({ id: 'collections.share.title', defaultMessage: 'Share “{title}”' }, { title: collection.title })}
      onClose={onClose}
      size="wide"
    >
      <div className="space-y-8">
        <Section id="share-visibility-heading" title={intl.formatMessage({ id: 'collections.share.visibility', defaultMessage: 'Visibility' })}>
          <VisibilitySection collection={collection} />
        </Section>
        <Section id="share-link-heading" title={intl.formatMessage({ id: 'collections.share.link', defaultMessage: 'Link' })}>
          <div className="space-y-5">
            <SecretLink collection={collection} />
            <ReadableLink collection={collection} />
          </div>
        </Section>
        <Section id="share-custom-link-heading" title={intl.formatMessage({ id: 'collections.share.ownDomain', defaultMessage: 'Your own domain' })}>
          <Loaded label={intl.formatMessage({ id: 'collections.share.loadingDomain', defaultMessage: 'Loading the workspace’s domain' })}>
            <CustomLink collection={collection} />
          </Loaded>
        </Section>
        <Section id="share-guests-heading" title={intl.formatMessage({ id: 'collections.share.guests', defaultMessage: 'Guests' })} headingRef={guestsHeading}>
          <p className="-mt-1 mb-3 text-sm text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage({
              id: 'collections.share.guestsIntro',
              defaultMessage: 'Guests open the collection whatever its visibility, signing in with a one-time link mailed to their address.',
            })}
          </p>
          <div className="space-y-5">
            <Loaded label={intl.formatMessage({ id: 'collections.share.loadingGuests', defaultMessage: 'Loading guests' })}>
              <GuestList collectionId={collection.id} onRemoved={focusGuests} />
            </Loaded>
            <InviteGuestsForm collectionId={collection.id} />
          </div>
        </Section>
      </div>
    </ModalDialog>
  );
}

function Section({ id, title, headingRef, children }: { id: string; title: string; headingRef?: Ref<HTMLHeadingElement>; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="border-t border-zinc-200 pt-6 first:border-t-0 first:pt-0 dark:border-zinc-800">
      <h3 id={id} ref={headingRef} tabIndex={headingRef ? -1 : undefined} className="mb-3 text-base font-semibold focus:outline-none">
        {title}
      </h3>
      {children}
    </section>
  );
}

/** A part that reads its own data: it loads and fails on its own, without taking the dialog with it. */
function Loaded({ label, children }: { label: string; children: ReactNode }) {
  return (
    <QueryErrorResetBoundary>
      {({ reset }) => (
        <QueryErrorBoundary onRetry={reset}>
          <Suspense fallback={<SkeletonList label={label} rows={1} />}>{children}</Suspense>
        </QueryErrorBoundary>
      )}
    </QueryErrorResetBoundary>
  );
}
