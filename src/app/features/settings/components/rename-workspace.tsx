import { useState } from 'react';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { TextField } from '../../../components/text-field';
import { workspaceNameError } from '../../../lib/account-validation';
import { useIntl } from '../../../lib/intl';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { useRenameWorkspace } from '../api/rename-workspace';

const fields = ['name'] as const;

/** The workspace's name with a Rename button that opens it for editing in place. */
export function RenameWorkspace({ name }: { name: string }) {
  const intl = useIntl();
  const [editing, setEditing] = useState(false);
  if (!editing) {
    return (
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="font-medium break-words">{name}</p>
        <Button variant="secondary" onClick={() => setEditing(true)}>
          {intl.formatMessage({ id: 'settings.renameWorkspace.rename', defaultMessage: 'Rename' })}
        </Button>
      </div>
    );
  }
  return <RenameForm name={name} onDone={() => setEditing(false)} />;
}

function RenameForm({ name, onDone }: { name: string; onDone: () => void }) {
  const intl = useIntl();
  const rename = useRenameWorkspace();
  const form = useValidatedForm(fields, { name }, (values) => ({ name: workspaceNameError(values.name, intl) }));
  const onSubmit = form.handleSubmit((values) => {
    rename.mutate({ name: values.name.trim() }, { onSuccess: onDone, onError: form.showServerErrors });
  });
  return (
    <form noValidate onSubmit={onSubmit} className="space-y-3">
      <FormError error={rename.error} />
      <TextField
        label={intl.formatMessage({ id: 'settings.renameWorkspace.nameLabel', defaultMessage: 'Workspace name' })}
        autoComplete="organization"
        autoFocus
        {...form.field('name')}
      />
      <div className="flex gap-2">
        <Button type="submit" disabled={rename.isPending}>
          {rename.isPending
            ? intl.formatMessage({ id: 'settings.renameWorkspace.saving', defaultMessage: 'Saving…' })
            : intl.formatMessage({ id: 'settings.renameWorkspace.save', defaultMessage: 'Save' })}
        </Button>
        <Button variant="secondary" onClick={onDone} disabled={rename.isPending}>
          {intl.formatMessage({ id: 'settings.renameWorkspace.cancel', defaultMessage: 'Cancel' })}
        </Button>
      </div>
    </form>
  );
}
