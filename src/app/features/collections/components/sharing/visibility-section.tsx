import { useRef, useState, type FormEvent } from 'react';
import type { Collection, CollectionVisibility } from '../../../../../contract/collections';
import { Button } from '../../../../components/button';
import { FormError } from '../../../../components/form-error';
import { TextField } from '../../../../components/text-field';
import { serverFieldErrors } from '../../../../lib/form-errors';
import { useIntl } from '../../../../lib/intl';
import { useUpdateCollection } from '../../api/update-collection';
import { collectionPasswordFieldError } from '../../utils/collection-password';
import { VisibilityOptions } from './visibility-options';
import { DeliberateForm } from '../../../../components/deliberate-form';

/**
 * Who can open the collection. Switching to Password needs a password unless the collection is
 * password-protected now (see `collectionPasswordFieldError`), checked before sending; a refusal the
 * server still gives is shown next to the field.
 */
export function VisibilitySection({ collection }: { collection: Collection }) {
  const intl = useIntl();
  const update = useUpdateCollection(collection.id);
  const [visibility, setVisibility] = useState<CollectionVisibility>(collection.visibility);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const passwordInput = useRef<HTMLInputElement>(null);
  const hasPassword = collection.visibility === 'password';
  const changed = visibility !== collection.visibility || (visibility === 'password' && password !== '');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const typed = visibility === 'password' && password !== '';
    const problem = collectionPasswordFieldError(password, { visibility, hasPassword }, intl);
    if (problem) {
      setPasswordError(problem);
      passwordInput.current?.focus();
      return;
    }
    update.mutate(
      { visibility, ...(typed ? { password } : {}) },
      {
        onSuccess: () => {
          setPassword('');
          setSaved(true);
        },
        onError: (error) => {
          const message = serverFieldErrors(error, ['password'] as const).password;
          if (message) {
            setPasswordError(message);
            passwordInput.current?.focus();
          }
        },
      },
    );
  }

  const fieldError = update.error ? serverFieldErrors(update.error, ['password'] as const).password : undefined;
  return (
    <DeliberateForm noValidate onSubmit={onSubmit} aria-labelledby="share-visibility-heading" className="space-y-4">
      <VisibilityOptions
        legend={intl.formatMessage({ id: 'collections.visibilitySection.legend', defaultMessage: 'Who can open it' })}
        value={visibility}
        disabled={update.isPending}
        onChange={(next) => {
          setVisibility(next);
          setSaved(false);
          setPasswordError(undefined);
          update.reset();
        }}
      />
      {visibility === 'password' ? (
        <TextField
          ref={passwordInput}
          label={
            hasPassword
              ? intl.formatMessage({ id: 'collections.visibilitySection.newPassword', defaultMessage: 'New password' })
              : intl.formatMessage({ id: 'collections.visibilitySection.password', defaultMessage: 'Collection password' })
          }
          type="password"
          autoComplete="new-password"
          value={password}
          error={passwordError}
          hint={
            hasPassword
              ? intl.formatMessage({ id: 'collections.visibilitySection.keepPassword', defaultMessage: 'Leave it empty to keep the current password.' })
              : intl.formatMessage({ id: 'collections.visibilitySection.passwordHint', defaultMessage: 'Visitors type it to open the collection. At least 4 characters.' })
          }
          onChange={(event) => {
            setPassword(event.target.value);
            setPasswordError(undefined);
            setSaved(false);
          }}
          className="max-w-sm"
        />
      ) : null}
      {update.error && !fieldError ? <FormError error={update.error} /> : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={!changed || update.isPending}>
          {update.isPending
            ? intl.formatMessage({ id: 'collections.visibilitySection.saving', defaultMessage: 'Saving…' })
            : intl.formatMessage({ id: 'collections.visibilitySection.save', defaultMessage: 'Save visibility' })}
        </Button>
        <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
          {saved
            ? intl.formatMessage({ id: 'collections.visibilitySection.saved', defaultMessage: 'Saved. A change applies to visitors on their next request.' })
            : intl.formatMessage({ id: 'collections.visibilitySection.applies', defaultMessage: 'A change applies to visitors on their next request.' })}
        </p>
      </div>
    </DeliberateForm>
  );
}
