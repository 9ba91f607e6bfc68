import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { isApiRequestError } from '../../../lib/api-error';
import { sessionQueryKey } from '../../../lib/query-keys';
import { watchRequestErrors } from '../../../lib/watch-request-errors';

/**
 * When the workspace starts requiring two-step verification while a member without it is working,
 * their next request is refused (403 `two_step_required`), whichever it is: the session is read
 * again and they are taken to Security to set it up.
 */
export function useRequiredTwoStepWatch() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(
    () =>
      watchRequestErrors(queryClient, (_key, error) => {
        if (!isApiRequestError(error) || error.details.reason !== 'two_step_required') return;
        void queryClient.invalidateQueries({ queryKey: sessionQueryKey }).then(() => navigate({ to: '/security', replace: true }));
      }),
    [queryClient, navigate],
  );
}
