import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormError } from '../../../components/form-error';
import { Section } from '../../../components/section';
import { TextField } from '../../../components/text-field';
import { useIntl } from '../../../lib/intl';
import { startSession, useSignOut } from '../../auth';
import { useDeleteWorkspace } from '../api/delete-workspace';

/**
 * Settings → Delete workspace, for its owner: a dialog that says what goes and asks for the
 * workspace's name again. The name must match before the button works, and Enter in the field does
 * nothing (no form): deleting is never one keystroke away.
 */
export function DeleteWorkspace({ workspaceName }: { workspaceName: string }) {
  const intl = useIntl();
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const remove = useDeleteWorkspace();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signOut = useSignOut({ onSignedOut: () => navigate({ to: '/signin' }) });
  const close = () => {
    setConfirming(false);
    setTyped('');
  };
  return (
    <Section
      title={intl.formatMessage({ id: 'settings.deleteWorkspace.heading', defaultMessage: 'Delete workspace' })}
      description={intl.formatMessage({
        id: 'settings.deleteWorkspace.description',
        defaultMessage:
          'Deletes the workspace and everything in it, for everyone: transfers and their links, collections, upload requests, contacts, API keys, webhooks, its activity and the vaults made in it. Every member is told by mail.',
      })}
    >
      <Button
        variant="danger"
        onClick={() => {
          remove.reset();
          setConfirming(true);
        }}
      >
        {intl.formatMessage({ id: 'settings.deleteWorkspace.open', defaultMessage: 'Delete workspace…' })}
      </Button>
      {confirming ? (
        <ConfirmDialog
          title={intl.formatMessage({ id: 'settings.deleteWorkspace.title', defaultMessage: 'Delete “{workspace}” for good?' }, { workspace: workspaceName })}
          confirmLabel={intl.formatMessage({ id: 'settings.deleteWorkspace.confirm', defaultMessage: 'Delete workspace' })}
          pendingLabel={intl.formatMessage({ id: 'settings.deleteWorkspace.deleting', defaultMessage: 'Deleting…' })}
          pending={remove.isPending}
          confirmDisabled={typed.trim() !== workspaceName.trim()}
          error={remove.error ? <FormError error={remove.error} /> : null}
          onConfirm={() =>
            remove.mutate(
              { name: typed },
              {
                onSuccess: ({ session }) => {
                  close();
                  if (session) {
                    startSession(queryClient, session);
                    void navigate({ to: '/transfers' });
                  } else {
                    signOut.mutate();
                  }
                },
              },
            )
          }
          onCancel={close}
        >
          <p>
            {intl.formatMessage({
              id: 'settings.deleteWorkspace.consequences',
              defaultMessage:
                'Every link it shared stops at once and every file in it is deleted. Members who belong to no other workspace lose their account. This cannot be undone.',
            })}
          </p>
          <TextField
            className="mt-4"
            label={intl.formatMessage({ id: 'settings.deleteWorkspace.nameLabel', defaultMessage: 'Type the workspace’s name to confirm' })}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </ConfirmDialog>
      ) : null}
    </Section>
  );
}
