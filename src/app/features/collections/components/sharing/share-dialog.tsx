import { QueryErrorResetBoundary } from '@tanstack/react-query';
import { Suspense, useCallback, useRef, type ReactNode, type Ref } from 'react';
import type { Collection } from '../../../../../contract/collections';
import { ModalDialog } from '../../../../components/modal-dialog';
import { QueryErrorBoundary } from '../../../../components/query-error-boundary';
import { SkeletonList } from '../../../../components/skeleton';
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
  const guestsHeading = useRef<HTMLHeadingElement>(null);
  const focusGuests = useCallback(() => guestsHeading.current?.focus(), []);
  if (!open) return null;
  return (
    <ModalDialog title={`Share “${collection.title}”`} onClose={onClose} size="wide">
      <div className="space-y-8">
        <Section id="share-visibility-heading" title="Visibility">
          <VisibilitySection collection={collection} />
        </Section>
        <Section id="share-link-heading" title="Link">
          <div className="space-y-5">
            <SecretLink collection={collection} />
            <ReadableLink collection={collection} />
          </div>
        </Section>
        <Section id="share-custom-link-heading" title="Your own domain">
          <Loaded label="Loading the workspace’s domain">
            <CustomLink collection={collection} />
          </Loaded>
        </Section>
        <Section id="share-guests-heading" title="Guests" headingRef={guestsHeading}>
          <p className="-mt-1 mb-3 text-sm text-zinc-600 dark:text-zinc-400">
            Guests open the collection whatever its visibility, signing in with a one-time link mailed to their address.
          </p>
          <div className="space-y-5">
            <Loaded label="Loading guests">
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
