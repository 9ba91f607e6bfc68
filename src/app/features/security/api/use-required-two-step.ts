import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { isApiRequestError } from '../../../lib/api-error';
import { sessionQueryKey } from '../../../lib/query-keys';
import { watchRequestErrors } from '../../../lib/watch-request-errors';

/** Where each of a workspace's requirements sends a person who does not meet it. */
const compliancePages = { two_step_required: '/security', single_sign_on_required: '/single-sign-on' } as const;

/**
 * When the workspace starts requiring two-step verification (or single sign-on) while a member who
 * does not meet it is working, their next request is refused (403 `two_step_required`, or
 * `single_sign_on_required`), whichever it is: the session is read again and they are taken where
 * they can comply.
 */
export function useRequiredTwoStepWatch() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(
    () =>
      watchRequestErrors(queryClient, (_key, error) => {
        if (!isApiRequestError(error)) return;
        const reason = error.details.reason;
        if (reason !== 'two_step_required' && reason !== 'single_sign_on_required') return;
        void queryClient.invalidateQueries({ queryKey: sessionQueryKey }).then(() => navigate({ to: compliancePages[reason], replace: true }));
      }),
    [queryClient, navigate],
  );
}
