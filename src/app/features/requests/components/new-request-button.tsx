import { useState } from 'react';
import { Button } from '../../../components/button';
import { ModalDialog } from '../../../components/modal-dialog';
import { useIntl } from '../../../lib/intl';
import { useSession } from '../../auth';
import { UpgradeNotice } from '../../collections';
import { RequestFormDialog } from './request-form-dialog';
import { uploadRequestsFeature } from './upload-requests-feature';

export function UploadRequestsUpgradeDialog({ onClose }: { onClose: () => void }) {
  const intl = useIntl();
  const session = useSession();
  return (
    <ModalDialog title={intl.formatMessage({ id: 'requests.upgradeDialog.title', defaultMessage: 'New upload request' })} onClose={onClose} size="wide">
      <UpgradeNotice isOperator={session.user.isOperator} feature={uploadRequestsFeature(intl)} />
    </ModalDialog>
  );
}

/**
 * Opens the create form; on the free plan, what upload requests are and that they need the paid
 * plan. `label` differs where two such buttons could be on one page (the empty state).
 */
export function NewRequestButton({ label }: { label?: string }) {
  const intl = useIntl();
  const paid = useSession().workspace.plan === 'paid';
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>{label ?? intl.formatMessage({ id: 'requests.newRequestButton.label', defaultMessage: 'New request' })}</Button>
      {open ? paid ? <RequestFormDialog onClose={() => setOpen(false)} /> : <UploadRequestsUpgradeDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}
