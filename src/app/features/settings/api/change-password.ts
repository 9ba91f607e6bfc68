import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordRequest } from '../../../../contract/dashboard';
import { dashboardFetch } from '../../../lib/dashboard-fetch';

export function changePassword(input: ChangePasswordRequest): Promise<void> {
  return dashboardFetch<void>('/password', { method: 'POST', json: input });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
