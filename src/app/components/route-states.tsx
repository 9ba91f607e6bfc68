import { Link, useLocation, useRouter, type ErrorComponentProps, type LinkProps } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { MessageDescriptor } from 'react-intl';
import { isApiRequestError } from '../lib/api-error';
import { useIntl } from '../lib/intl';
import { safeRedirectPath } from '../lib/safe-redirect';
import { useDocumentTitle } from '../lib/use-document-title';
import { Button, buttonClass } from './button';
import { SkeletonPage } from './skeleton';

/** Fills the window: shown at the root, outside every shell (the router's notFoundMode is 'root'). */
function FullPage({ children }: { children: ReactNode }) {
  return (
    <main id="main" tabIndex={-1} className="mx-auto flex min-h-dvh max-w-lg flex-col justify-center px-4 py-16 focus:outline-none">
      {children}
    </main>
  );
}

/** Sits wherever the failed route would have been, usually inside a shell's <main>. */
function Centered({ children }: { children: ReactNode }) {
  return <div className="mx-auto flex max-w-lg flex-col py-12">{children}</div>;
}

/** The status code above a not-found page's title: a number, written in the page's digits. */
const NOT_FOUND_STATUS = 404;

export function NotFoundPage() {
  const intl = useIntl();
  const title = intl.formatMessage({ id: 'common.notFound.title', defaultMessage: 'Page not found' });
  useDocumentTitle(title);
  return (
    <FullPage>
      <p className="text-sm font-semibold text-indigo-600 dark:text-indigo-400">{intl.formatNumber(NOT_FOUND_STATUS, { useGrouping: false })}</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight">{title}</h1>
      <p className="mt-3 text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage({ id: 'common.notFound.description', defaultMessage: 'There is nothing at this address. The link may be old, or the address mistyped.' })}
      </p>
      <div className="mt-8 flex flex-wrap gap-3">
        <Link to="/" className={buttonClass('primary')}>
          {intl.formatMessage({ id: 'common.notFound.dashboard', defaultMessage: 'Go to the dashboard' })}
        </Link>
        <Link to="/docs/api" className={buttonClass('secondary')}>
          {intl.formatMessage({ id: 'common.notFound.apiReference', defaultMessage: 'API reference' })}
        </Link>
      </div>
    </FullPage>
  );
}

/** What a route shows when its loader or component failed. */
export function RouteErrorPage({ error, reset }: ErrorComponentProps) {
  const intl = useIntl();
  const router = useRouter();
  const location = useLocation();
  const title = intl.formatMessage({ id: 'common.routeError.title', defaultMessage: 'Something went wrong' });
  useDocumentTitle(title);
  if (isApiRequestError(error) && error.status === 401) {
    return (
      <Centered>
        <h1 className="text-2xl font-semibold tracking-tight">{intl.formatMessage({ id: 'common.routeError.sessionEnded', defaultMessage: 'Your session has ended' })}</h1>
        <p className="mt-3 text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({ id: 'common.routeError.signInAgain', defaultMessage: 'Sign in again to carry on where you were.' })}
        </p>
        <div className="mt-8">
          <Link to="/signin" search={{ redirect: safeRedirectPath(location.href) }} className={buttonClass('primary')}>
            {intl.formatMessage({ id: 'common.routeError.signIn', defaultMessage: 'Sign in' })}
          </Link>
        </div>
      </Centered>
    );
  }
  return (
    <Centered>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <p role="alert" className="mt-3 text-zinc-600 dark:text-zinc-400">
        {error instanceof Error ? error.message : intl.formatMessage({ id: 'common.routeError.notShown', defaultMessage: 'The page could not be shown.' })}
      </p>
      <div className="mt-8 flex flex-wrap gap-3">
        <Button
          onClick={() => {
            reset();
            void router.invalidate();
          }}
        >
          {intl.formatMessage({ id: 'common.routeError.tryAgain', defaultMessage: 'Try again' })}
        </Button>
        <Link to="/" className={buttonClass('secondary')}>
          {intl.formatMessage({ id: 'common.routeError.dashboard', defaultMessage: 'Go to the dashboard' })}
        </Link>
      </div>
    </Centered>
  );
}

/** Its words are messages (`defineMessages` in the route file), formatted when the page renders in its language. */
interface MissingResource {
  /** Such as "Transfer not found". */
  title: MessageDescriptor;
  description: MessageDescriptor;
  back: { to: LinkProps['to']; label: MessageDescriptor };
  /** What the page offers when the resource may be in another of the person's workspaces. */
  elsewhere?: ReactNode;
}

/**
 * The error component of a route that shows one resource: an API 404 (an unknown id, or one of
 * another workspace) is a not-found state inside the shell, with the way back; anything else is
 * the usual error page.
 */
export function resourceErrorComponent(missing: MissingResource) {
  return function ResourceErrorPage(props: ErrorComponentProps) {
    if (isApiRequestError(props.error) && props.error.status === 404) return <ResourceNotFound {...missing} />;
    return <RouteErrorPage {...props} />;
  };
}

function ResourceNotFound({ title, description, back, elsewhere }: MissingResource) {
  const intl = useIntl();
  const shownTitle = intl.formatMessage(title);
  useDocumentTitle(shownTitle);
  return (
    <Centered>
      <p className="text-sm font-semibold text-indigo-600 dark:text-indigo-400">{intl.formatNumber(NOT_FOUND_STATUS, { useGrouping: false })}</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight">{shownTitle}</h1>
      <p className="mt-3 text-zinc-600 dark:text-zinc-400">{intl.formatMessage(description)}</p>
      {elsewhere}
      <div className="mt-8">
        <Link to={back.to} className={buttonClass(elsewhere ? 'secondary' : 'primary')}>
          {intl.formatMessage(back.label)}
        </Link>
      </div>
    </Centered>
  );
}

/** What a route shows while its data loads for more than a moment: the shape of a page. */
export function PendingPage() {
  return <SkeletonPage />;
}
