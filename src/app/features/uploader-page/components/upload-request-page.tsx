import { useQuery } from '@tanstack/react-query';
import type { SubmissionStep as SubmissionStepComponent } from './submission-step';
import { lazy, Suspense, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { PublicUploadRequest, SubmissionProgress } from '../../../../contract/public-requests';
import { SkeletonCard } from '../../../components/skeleton';
import { useIntl } from '../../../lib/intl';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { publicRequestQueryOptions, type UploaderDetails } from '../api/public-request-api';
import { deliveredOf } from '../utils/submission-store';
import { openSubmission } from '../utils/submission-session';
import { RequestErrorPage, RequestRefusedPage, refusalOfRequest, type Refusal } from './request-status-pages';
import { RequestSummary } from './request-summary';
import { ThankYou } from './thank-you';
import { UploaderDetailsForm } from './uploader-details-form';

/** The public page of an upload request (`/r/<slug>`): anyone with the link sends files, no account. */
export function UploadRequestPage({ slug }: { slug: string }) {
  const intl = useIntl();
  const request = useQuery(publicRequestQueryOptions(slug));
  if (request.isPending) return <SkeletonCard label={intl.formatMessage({ id: 'upload.loading', defaultMessage: 'Loading upload request' })} />;
  if (request.isError) return <RequestErrorPage error={request.error} onRetry={() => void request.refetch()} />;
  return <UploadRequestScreen slug={slug} request={request.data} />;
}

/** The uploader (Uppy and tus) loads when it is needed: the page opens on the details form, which has none. */
let submissionStep: Promise<{ default: typeof SubmissionStepComponent }> | null = null;
/** The uploader (Uppy, the page's largest part), fetched once: by the first touch of the details form, or by Continue. */
const loadSubmissionStep = () => (submissionStep ??= import('./submission-step').then((m) => ({ default: m.SubmissionStep })));
const SubmissionStep = lazy(loadSubmissionStep);

type Step = 'details' | 'files' | 'sent';
const noSubmission = () => null;
const noDetails: UploaderDetails = { name: '', email: '', message: '' };

function UploadRequestScreen({ slug, request }: { slug: string; request: PublicUploadRequest }) {
  const intl = useIntl();
  const details = useRef<UploaderDetails>(noDetails);
  const [{ store, session }] = useState(() => openSubmission(slug, () => details.current));
  // A server render (and its hydration) is of a first visit: no submission under way (src/app/lib/hydration.ts).
  const submission = useSyncExternalStore(store.subscribe, store.snapshot, noSubmission);
  const [typed, setTyped] = useState<UploaderDetails>(() => store.current?.details ?? noDetails);
  useEffect(() => {
    details.current = typed;
  }, [typed]);
  // A submission from an earlier visit carries on where it was: its details are on the server already.
  const [step, setStep] = useState<Step>(() => (store.current ? 'files' : 'details'));
  const [movedOn, setMovedOn] = useState(false);
  const [round, setRound] = useState(0);
  const [refusal, setRefusal] = useState<Refusal | null>(() => refusalOfRequest(request));
  const [sent, setSent] = useState<SubmissionProgress | null>(null);
  const [earlier, setEarlier] = useState(() => ({ id: store.current?.id ?? null, ...deliveredOf(store.current) }));

  // Takes no files (when the page opened, or since) and nothing of this visitor's is on the way: the request's own page says so.
  if (refusal && submission === null && step !== 'sent') return <RequestRefusedPage request={request} refusal={refusal} />;

  return (
    <div className="space-y-6">
      <RequestSummary request={request} />
      <div className="rounded-xl border border-zinc-200 bg-white p-5 shadow-xs sm:p-8 dark:border-zinc-800 dark:bg-zinc-900">
        {step !== 'sent' ? <PageTitle title={request.title} /> : null}
        {step === 'details' ? (
          // While the visitor fills in their details the uploader loads, so Continue shows it at once
          // instead of a placeholder that it then pushes down (not on page load: it would slow the first paint).
          <div onFocus={() => void loadSubmissionStep()} onPointerEnter={() => void loadSubmissionStep()}>
            <UploaderDetailsForm
              initial={typed}
              requireEmail={request.requireEmail}
              onContinue={(next) => {
                setTyped(next);
                setStep('files');
                setMovedOn(true);
              }}
            />
          </div>
        ) : step === 'files' ? (
          <Suspense fallback={<SkeletonCard label={intl.formatMessage({ id: 'upload.loadingUploader', defaultMessage: 'Loading the uploader' })} />}>
            <SubmissionStep
              key={round}
              slug={slug}
              request={request}
              session={session}
              store={store}
              submission={submission}
              details={submission?.details ?? typed}
              earlier={submission !== null && submission.id === earlier.id ? earlier : { count: 0, bytes: 0 }}
              refusal={refusal}
              focusHeading={movedOn}
              onChangeDetails={() => setStep('details')}
              onRefused={setRefusal}
              onSent={(progress) => {
                session.forget();
                store.clear();
                setSent(progress);
                setStep('sent');
              }}
            />
          </Suspense>
        ) : sent ? (
          <ThankYou
            progress={sent}
            workspaceName={request.workspaceName}
            refusal={refusal}
            onSendMore={() => {
              setSent(null);
              setEarlier({ id: null, count: 0, bytes: 0 });
              setRound((r) => r + 1);
              setMovedOn(true);
              setStep('files');
            }}
          />
        ) : null}
      </div>
    </div>
  );
}

/** The tab is named after the request while it is being filled in (the thank-you names itself). */
function PageTitle({ title }: { title: string }) {
  useDocumentTitle(title);
  return null;
}
