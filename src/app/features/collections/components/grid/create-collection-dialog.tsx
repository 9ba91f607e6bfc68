import { useNavigate } from '@tanstack/react-router';
import { useId, useRef, useState, type FormEvent } from 'react';
import type { IntlShape } from 'react-intl';
import type { CollectionVisibility } from '../../../../../contract/collections';
import { FormError } from '../../../../components/form-error';
import { DialogActions, ModalDialog } from '../../../../components/modal-dialog';
import { inputClass, TextField } from '../../../../components/text-field';
import { firstInvalid, serverFieldErrors, type FieldErrors } from '../../../../lib/form-errors';
import { currentIntl, useIntl } from '../../../../lib/intl';
import { useCreateCollection } from '../../api/create-collection';
import { collectionPasswordFieldError } from '../../utils/collection-password';
import { VisibilityOptions } from '../sharing/visibility-options';

const fields = ['title', 'description', 'password'] as const;
type Field = (typeof fields)[number];

interface Draft {
  title: string;
  description: string;
  visibility: CollectionVisibility;
  password: string;
}

/** The API's limits, checked here so the message comes at once and names the field. */
export function validateNewCollection(draft: Draft, intl: IntlShape = currentIntl()): FieldErrors<Field> {
  const errors: FieldErrors<Field> = {};
  const tooLong = (max: number) => intl.formatMessage({ id: 'collections.create.tooLong', defaultMessage: 'Use at most {max, number} characters.' }, { max });
  const title = draft.title.trim();
  if (!title) errors.title = intl.formatMessage({ id: 'collections.create.titleMissing', defaultMessage: 'Give the collection a title.' });
  else if (title.length > 200) errors.title = tooLong(200);
  if (draft.description.trim().length > 2000) errors.description = tooLong(2000);
  errors.password = collectionPasswordFieldError(draft.password, { visibility: draft.visibility, hasPassword: false }, intl);
  return errors;
}

/** Title, description and visibility; creating opens the new collection, ready for its files. */
export function CreateCollectionDialog({ onClose }: { onClose: () => void }) {
  const intl = useIntl();
  const create = useCreateCollection();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft>({ title: '', description: '', visibility: 'private', password: '' });
  const [attempted, setAttempted] = useState(false);
  const [fromServer, setFromServer] = useState<FieldErrors<Field>>({});
  const titleInput = useRef<HTMLInputElement>(null);
  const descriptionInput = useRef<HTMLTextAreaElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const descriptionId = useId();

  const clientErrors = validateNewCollection(draft, intl);
  const errors: FieldErrors<Field> = {};
  for (const field of fields) errors[field] = (attempted ? clientErrors[field] : undefined) ?? fromServer[field];

  function change<K extends keyof Draft>(key: K, value: Draft[K]) {
    setDraft((current) => ({ ...current, [key]: value }));
    if (key !== 'visibility') setFromServer((current) => ({ ...current, [key]: undefined }));
  }

  function focus(field: Field) {
    ({ title: titleInput, description: descriptionInput, password: passwordInput })[field].current?.focus();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setAttempted(true);
    setFromServer({});
    const invalid = firstInvalid(clientErrors, fields);
    if (invalid) return focus(invalid);
    const description = draft.description.trim();
    create.mutate(
      {
        title: draft.title.trim(),
        ...(description ? { description } : {}),
        visibility: draft.visibility,
        ...(draft.visibility === 'password' ? { password: draft.password } : {}),
      },
      {
        onSuccess: (collection) => {
          onClose();
          void navigate({ to: '/collections/$collectionId', params: { collectionId: collection.id } });
        },
        onError: (error) => {
          const byField = serverFieldErrors(error, fields);
          setFromServer(byField);
          const invalidOnServer = firstInvalid(byField, fields);
          if (invalidOnServer) focus(invalidOnServer);
        },
      },
    );
  }

  const unplacedError = create.error && !firstInvalid(serverFieldErrors(create.error, fields), fields) ? create.error : null;
  return (
    <ModalDialog
      title={intl.formatMessage({ id: 'collections.create.title', defaultMessage: 'New collection' })}
      onClose={onClose}
      busy={create.isPending}
      initialFocus={titleInput}
    >
      <form noValidate onSubmit={onSubmit} aria-label={intl.formatMessage({ id: 'collections.create.title', defaultMessage: 'New collection' })} className="space-y-5">
        <FormError error={unplacedError} />
        <TextField
          ref={titleInput}
          label={intl.formatMessage({ id: 'collections.create.titleLabel', defaultMessage: 'Title' })}
          value={draft.title}
          error={errors.title}
          maxLength={200}
          autoComplete="off"
          onChange={(event) => change('title', event.target.value)}
        />
        <div>
          <label htmlFor={descriptionId} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
            {intl.formatMessage({ id: 'collections.create.descriptionLabel', defaultMessage: 'Description (optional)' })}
          </label>
          <textarea
            id={descriptionId}
            ref={descriptionInput}
            rows={3}
            value={draft.description}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={`${descriptionId}-hint${errors.description ? ` ${descriptionId}-error` : ''}`}
            onChange={(event) => change('description', event.target.value)}
            className={`${inputClass} mt-1 resize-y`}
          />
          <p id={`${descriptionId}-hint`} className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage({ id: 'collections.create.descriptionHint', defaultMessage: 'Shown to everyone who opens the collection.' })}
          </p>
          {errors.description ? (
            <p id={`${descriptionId}-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
              {errors.description}
            </p>
          ) : null}
        </div>
        <VisibilityOptions
          legend={intl.formatMessage({ id: 'collections.create.visibilityLegend', defaultMessage: 'Who can open it' })}
          value={draft.visibility}
          onChange={(visibility) => change('visibility', visibility)}
        />
        {draft.visibility === 'password' ? (
          <TextField
            ref={passwordInput}
            label={intl.formatMessage({ id: 'collections.create.passwordLabel', defaultMessage: 'Collection password' })}
            type="password"
            autoComplete="new-password"
            value={draft.password}
            error={errors.password}
            hint={intl.formatMessage({ id: 'collections.create.passwordHint', defaultMessage: 'Visitors type it to open the collection. At least 4 characters.' })}
            onChange={(event) => change('password', event.target.value)}
            className="max-w-sm"
          />
        ) : null}
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({ id: 'collections.create.changeLater', defaultMessage: 'You can change who can open it, and invite guests, at any time under Share.' })}
        </p>
        <DialogActions
          onCancel={onClose}
          pending={create.isPending}
          submitLabel={intl.formatMessage({ id: 'collections.create.submit', defaultMessage: 'Create collection' })}
          pendingLabel={intl.formatMessage({ id: 'collections.create.pending', defaultMessage: 'Creating…' })}
        />
      </form>
    </ModalDialog>
  );
}
