import { useId, useState } from 'react';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { FormError } from '../../../components/form-error';
import { TextField } from '../../../components/text-field';
import { newPasswordError, newPasswordHint } from '../../../lib/account-validation';
import { useIntl } from '../../../lib/intl';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { useChangePassword } from '../api/change-password';

const fields = ['currentPassword', 'newPassword'] as const;

/** Change the password; every other session is signed out, this one stays. */
export function ChangePassword() {
  const intl = useIntl();
  const headingId = useId();
  const change = useChangePassword();
  const [done, setDone] = useState(false);
  const form = useValidatedForm(fields, { currentPassword: '', newPassword: '' }, (values) => ({
    currentPassword:
      values.currentPassword === '' ? intl.formatMessage({ id: 'settings.password.currentMissing', defaultMessage: 'Enter your current password' }) : undefined,
    newPassword: newPasswordError(values.newPassword, intl),
  }));
  const onSubmit = form.handleSubmit((values) => {
    setDone(false);
    change.mutate(values, { onSuccess: () => setDone(true), onError: form.showServerErrors });
  });
  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-4 text-lg font-semibold">
        {intl.formatMessage({ id: 'settings.password.heading', defaultMessage: 'Password' })}
      </h2>
      <form noValidate onSubmit={onSubmit} className="max-w-md space-y-4">
        <FormError error={change.error} />
        <TextField
          label={intl.formatMessage({ id: 'settings.password.currentLabel', defaultMessage: 'Current password' })}
          type="password"
          autoComplete="current-password"
          {...form.field('currentPassword')}
        />
        <TextField
          label={intl.formatMessage({ id: 'settings.password.newLabel', defaultMessage: 'New password' })}
          type="password"
          autoComplete="new-password"
          hint={newPasswordHint(intl)}
          {...form.field('newPassword')}
        />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={change.isPending}>
            {change.isPending
              ? intl.formatMessage({ id: 'settings.password.changing', defaultMessage: 'Changing…' })
              : intl.formatMessage({ id: 'settings.password.change', defaultMessage: 'Change password' })}
          </Button>
          {done ? (
            <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
              {intl.formatMessage({ id: 'settings.password.changed', defaultMessage: 'Password changed. Your other sessions were signed out.' })}
            </p>
          ) : null}
        </div>
      </form>
    </Card>
  );
}
