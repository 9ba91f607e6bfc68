import { useState } from 'react';
import type { UploadRequest } from '../../../../contract/requests';
import { Button } from '../../../components/button';
import { ConfirmedAction } from '../../../components/confirmed-action';
import { FormError } from '../../../components/form-error';
import { useIntl } from '../../../lib/intl';
import { useCloseUploadRequest, useUpdateUploadRequest } from '../api/update-request';
import { RequestFormDialog } from './request-form-dialog';

/**
 * Edit, pause or resume, and close (confirmed: it is final). Not for a closed request: the
 * server refuses any change to one, so none is offered.
 */
export function RequestActions({ request, announce, onClosed }: { request: UploadRequest; announce: (message: string) => void; onClosed: () => void }) {
  const intl = useIntl();
  const [editing, setEditing] = useState(false);
  const update = useUpdateUploadRequest(request.id);
  const close = useCloseUploadRequest(request.id, { onClosed });
  const paused = request.status === 'paused';

  function setStatus(status: 'open' | 'paused') {
    update.mutate(
      { status },
      {
        onSuccess: () =>
          announce(
            status === 'paused'
              ? intl.formatMessage({ id: 'requests.actions.pausedAnnouncement', defaultMessage: 'Request paused.' })
              : intl.formatMessage({ id: 'requests.actions.resumedAnnouncement', defaultMessage: 'Request resumed.' }),
          ),
      },
    );
  }

  return (
    <div className="flex w-full flex-col gap-2 sm:w-auto sm:items-end">
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          onClick={() => {
            update.reset();
            setEditing(true);
          }}
        >
          {intl.formatMessage({ id: 'requests.actions.edit', defaultMessage: 'Edit' })}
        </Button>
        <Button
          variant={paused ? 'primary' : 'secondary'}
          // Not disabled while saving: a disabled button loses focus, and Pause becomes Resume in place.
          aria-disabled={update.isPending || undefined}
          onClick={() => {
            if (!update.isPending) setStatus(paused ? 'open' : 'paused');
          }}
        >
          {paused
            ? intl.formatMessage({ id: 'requests.actions.resume', defaultMessage: 'Resume' })
            : intl.formatMessage({ id: 'requests.actions.pause', defaultMessage: 'Pause' })}
        </Button>
        <ConfirmedAction
          label={intl.formatMessage({ id: 'requests.actions.close', defaultMessage: 'Close request' })}
          variant="secondary"
          title={intl.formatMessage({ id: 'requests.actions.closeTitle', defaultMessage: 'Close “{title}”?' }, { title: request.title })}
          pendingLabel={intl.formatMessage({ id: 'requests.actions.closing', defaultMessage: 'Closing…' })}
          action={close}
          onDone={() => undefined}
        >
          {intl.formatMessage({
            id: 'requests.actions.closeWarning',
            defaultMessage:
              'The upload page stops accepting files for good. Closing is final: a closed request cannot be opened again, paused or edited. The files already sent stay in the collection.',
          })}
        </ConfirmedAction>
      </div>
      <FormError error={update.error} className="sm:max-w-sm" />
      {editing ? <RequestFormDialog request={request} onClose={() => setEditing(false)} /> : null}
    </div>
  );
}
