import { useNavigate } from '@tanstack/react-router';
import { createRef, useEffect, useId, useState, type FormEvent } from 'react';
import { DEFAULT_MAX_FILES_PER_SUBMISSION, MAX_FILES_PER_SUBMISSION, type UploadRequest } from '../../../../contract/requests';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { ModalDialog } from '../../../components/modal-dialog';
import { FormField, inputClass, TextAreaField, TextField } from '../../../components/text-field';
import { firstInvalid, serverFieldErrors, type FieldErrors } from '../../../lib/form-errors';
import { useIntl } from '../../../lib/intl';
import { useSession } from '../../auth';
import { isUpgradeRequired, UpgradeNotice } from '../../collections';
import { useCreateUploadRequest } from '../api/create-request';
import { useUpdateUploadRequest } from '../api/update-request';
import {
  changesBody,
  createBody,
  draftFromRequest,
  parseTypes,
  requestFields,
  validateRequestDraft,
  type RequestDraft,
  type RequestField,
  type SizeUnit,
} from '../utils/request-form';
import { AllowedTypesField } from './allowed-types-field';
import { DestinationFields } from './destination-fields';
import { uploadRequestsFeature } from './upload-requests-feature';
import { DeliberateForm } from '../../../components/deliberate-form';

/** The browser's time zone, named so a deadline typed in local time is not misread. */
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Types typed in "Other types" but not added yet count as chosen: nobody expects them dropped on Save. */
function withPendingTypes(draft: RequestDraft, pending: string): RequestDraft {
  const typed = parseTypes(pending);
  return typed.length === 0 ? draft : { ...draft, allowedTypes: [...new Set([...draft.allowedTypes, ...typed])] };
}

/**
 * Creates a request (then opens its page, with the link to share) or edits one: title, message,
 * where the files go, deadline, limits, types and whether an email is required. The browser's
 * checks come first; the server's refusals show on the field they name.
 */
export function RequestFormDialog({ request, onClose }: { request?: UploadRequest; onClose: () => void }) {
  const intl = useIntl();
  const session = useSession();
  const navigate = useNavigate();
  const create = useCreateUploadRequest();
  const update = useUpdateUploadRequest(request?.id ?? '');
  const mutation = request ? update : create;
  const [initial] = useState(() => draftFromRequest(request ?? null));
  const [draft, setDraft] = useState(initial);
  const [pendingTypes, setPendingTypes] = useState('');
  const [attempted, setAttempted] = useState(false);
  const [fromServer, setFromServer] = useState<FieldErrors<RequestField>>({});
  const [focusRequest, setFocusRequest] = useState<{ field: RequestField } | null>(null);
  const [refs] = useState(() => ({
    title: createRef<HTMLInputElement>(),
    message: createRef<HTMLTextAreaElement>(),
    collectionId: createRef<HTMLSelectElement>(),
    folderId: createRef<HTMLSelectElement>(),
    deadline: createRef<HTMLInputElement>(),
    maxFiles: createRef<HTMLInputElement>(),
    maxBytes: createRef<HTMLInputElement>(),
    allowedTypes: createRef<HTMLInputElement>(),
    requireEmail: createRef<HTMLInputElement>(),
  }));
  const id = useId();

  // After the message is on screen: the field is described by it when focus lands.
  useEffect(() => {
    if (focusRequest) refs[focusRequest.field].current?.focus();
  }, [focusRequest, refs]);

  const complete = withPendingTypes(draft, pendingTypes);
  const clientErrors = validateRequestDraft(complete, { initial, intl });
  const errors: FieldErrors<RequestField> = {};
  for (const field of requestFields) errors[field] = (attempted ? clientErrors[field] : undefined) ?? fromServer[field];

  function change<K extends keyof RequestDraft>(key: K, value: RequestDraft[K]) {
    setDraft((current) => ({ ...current, [key]: value }));
    const field: RequestField = key === 'maxSize' || key === 'maxSizeUnit' ? 'maxBytes' : (key as RequestField);
    setFromServer((current) => ({ ...current, [field]: undefined }));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setAttempted(true);
    setFromServer({});
    const invalid = firstInvalid(clientErrors, requestFields);
    if (invalid) return setFocusRequest({ field: invalid });
    const onError = (error: unknown) => {
      const byField = serverFieldErrors(error, requestFields);
      setFromServer(byField);
      const invalidOnServer = firstInvalid(byField, requestFields);
      if (invalidOnServer) setFocusRequest({ field: invalidOnServer });
    };
    if (!request) {
      create.mutate(createBody(complete), {
        onSuccess: (created) => {
          onClose();
          void navigate({ to: '/requests/$requestId', params: { requestId: created.id } });
        },
        onError,
      });
      return;
    }
    const changes = changesBody(initial, complete);
    if (Object.keys(changes).length === 0) return onClose();
    update.mutate(changes, { onSuccess: onClose, onError });
  }

  const title = request
    ? intl.formatMessage({ id: 'requests.form.editTitle', defaultMessage: 'Edit “{title}”' }, { title: request.title })
    : intl.formatMessage({ id: 'requests.form.newTitle', defaultMessage: 'New upload request' });
  if (isUpgradeRequired(mutation.error)) {
    return (
      <ModalDialog title={title} onClose={onClose} size="wide">
        <UpgradeNotice isOperator={session.user.isOperator} feature={uploadRequestsFeature(intl)} />
      </ModalDialog>
    );
  }

  const unplacedError = mutation.error && !firstInvalid(serverFieldErrors(mutation.error, requestFields), requestFields) ? mutation.error : null;
  return (
    <ModalDialog title={title} onClose={onClose} busy={mutation.isPending} initialFocus={refs.title} size="wide">
      <DeliberateForm noValidate onSubmit={onSubmit} aria-label={title} className="space-y-6">
        <FormError error={unplacedError} />
        <TextField
          ref={refs.title}
          label={intl.formatMessage({ id: 'requests.form.titleLabel', defaultMessage: 'Title' })}
          value={draft.title}
          error={errors.title}
          maxLength={200}
          autoComplete="off"
          hint={intl.formatMessage({ id: 'requests.form.titleHint', defaultMessage: 'Uploaders see it at the top of the page.' })}
          onChange={(event) => change('title', event.target.value)}
        />
        <TextAreaField
          ref={refs.message}
          label={intl.formatMessage({ id: 'requests.form.messageLabel', defaultMessage: 'Message (optional)' })}
          rows={3}
          value={draft.message}
          error={errors.message}
          hint={intl.formatMessage({
            id: 'requests.form.messageHint',
            defaultMessage: 'Shown to uploaders under the title: what to send, and anything they should know. Line breaks are kept.',
          })}
          onChange={(event) => change('message', event.target.value)}
        />
        <DestinationFields
          collectionId={draft.collectionId}
          folderId={draft.folderId}
          onCollectionChange={(collectionId) => {
            // Another collection's folders are not this one's: back to its top level.
            change('collectionId', collectionId);
            change('folderId', '');
          }}
          onFolderChange={(folderId) => change('folderId', folderId)}
          collectionError={errors.collectionId}
          folderError={errors.folderId}
          collectionRef={refs.collectionId}
          folderRef={refs.folderId}
        />
        <FormField
          label={intl.formatMessage({ id: 'requests.form.deadlineLabel', defaultMessage: 'Deadline (optional)' })}
          error={errors.deadline}
          hint={intl.formatMessage(
            {
              id: 'requests.form.deadlineHint',
              defaultMessage: 'After this the page no longer accepts files; uploads under way may finish. Your time zone: {timeZone}.',
            },
            { timeZone },
          )}
        >
          {(control) => (
            <div className="mt-1 flex gap-2">
              <input
                ref={refs.deadline}
                type="datetime-local"
                value={draft.deadline}
                onChange={(event) => change('deadline', event.target.value)}
                className={`${inputClass} min-w-0 sm:max-w-xs`}
                {...control}
              />
              {draft.deadline ? (
                <Button
                  variant="secondary"
                  aria-label={intl.formatMessage({ id: 'requests.form.clearDeadline', defaultMessage: 'Clear the deadline' })}
                  onClick={() => change('deadline', '')}
                >
                  {intl.formatMessage({ id: 'requests.form.clear', defaultMessage: 'Clear' })}
                </Button>
              ) : null}
            </div>
          )}
        </FormField>
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            ref={refs.maxFiles}
            label={intl.formatMessage({ id: 'requests.form.maxFilesLabel', defaultMessage: 'Most files per submission' })}
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_FILES_PER_SUBMISSION}
            step={1}
            value={draft.maxFiles}
            error={errors.maxFiles}
            hint={intl.formatMessage(
              { id: 'requests.form.maxFilesHint', defaultMessage: 'Up to {max, number}; empty for the default, {defaultCount, number}.' },
              { max: MAX_FILES_PER_SUBMISSION, defaultCount: DEFAULT_MAX_FILES_PER_SUBMISSION },
            )}
            onChange={(event) => change('maxFiles', event.target.value)}
          />
          <FormField
            label={intl.formatMessage({ id: 'requests.form.maxSizeLabel', defaultMessage: 'Most data per submission' })}
            error={errors.maxBytes}
            hint={intl.formatMessage({ id: 'requests.form.maxSizeHint', defaultMessage: 'Optional. All its files together; empty for no limit.' })}
          >
            {(control) => (
              <div className="mt-1 flex gap-2">
                <input
                  ref={refs.maxBytes}
                  type="number"
                  inputMode="decimal"
                  min={0}
                  step="any"
                  value={draft.maxSize}
                  onChange={(event) => change('maxSize', event.target.value)}
                  className={`${inputClass} min-w-0`}
                  {...control}
                />
                <select
                  aria-label={intl.formatMessage({ id: 'requests.form.unit', defaultMessage: 'Unit' })}
                  value={draft.maxSizeUnit}
                  onChange={(event) => change('maxSizeUnit', event.target.value as SizeUnit)}
                  // `!`: inputClass makes a field full width, and utilities of one kind do not override by order.
                  className={`${inputClass} w-auto! shrink-0`}
                >
                  <option value="MB">{intl.formatMessage({ id: 'requests.form.unitMegabytes', defaultMessage: 'MB' })}</option>
                  <option value="GB">{intl.formatMessage({ id: 'requests.form.unitGigabytes', defaultMessage: 'GB' })}</option>
                </select>
              </div>
            )}
          </FormField>
        </div>
        <AllowedTypesField
          value={draft.allowedTypes}
          onChange={(types) => change('allowedTypes', types)}
          pending={pendingTypes}
          onPendingChange={(text) => {
            setPendingTypes(text);
            setFromServer((current) => ({ ...current, allowedTypes: undefined }));
          }}
          error={errors.allowedTypes}
          inputRef={refs.allowedTypes}
        />
        <div className="flex gap-3">
          <input
            ref={refs.requireEmail}
            id={`${id}-email`}
            type="checkbox"
            checked={draft.requireEmail}
            onChange={(event) => change('requireEmail', event.target.checked)}
            aria-describedby={`${id}-email-hint${errors.requireEmail ? ` ${id}-email-error` : ''}`}
            className="mt-0.5 size-4 shrink-0 accent-indigo-600"
          />
          <div className="text-sm">
            <label htmlFor={`${id}-email`} className="font-medium text-zinc-800 dark:text-zinc-200">
              {intl.formatMessage({ id: 'requests.form.requireEmailLabel', defaultMessage: 'Require an email address' })}
            </label>
            <p id={`${id}-email-hint`} className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
              {intl.formatMessage({
                id: 'requests.form.requireEmailHint',
                defaultMessage: 'Uploaders always give their name; the email address is optional unless you require it.',
              })}
            </p>
            {errors.requireEmail ? (
              <p id={`${id}-email-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
                {errors.requireEmail}
              </p>
            ) : null}
          </div>
        </div>
        <div className="flex flex-col-reverse gap-2 border-t border-zinc-200 pt-5 sm:flex-row sm:justify-end dark:border-zinc-800">
          <Button variant="secondary" onClick={onClose} disabled={mutation.isPending}>
            {intl.formatMessage({ id: 'requests.form.cancel', defaultMessage: 'Cancel' })}
          </Button>
          <Button type="submit" disabled={mutation.isPending}>
            {request
              ? mutation.isPending
                ? intl.formatMessage({ id: 'requests.form.saving', defaultMessage: 'Saving…' })
                : intl.formatMessage({ id: 'requests.form.save', defaultMessage: 'Save changes' })
              : mutation.isPending
                ? intl.formatMessage({ id: 'requests.form.creating', defaultMessage: 'Creating…' })
                : intl.formatMessage({ id: 'requests.form.create', defaultMessage: 'Create request' })}
          </Button>
        </div>
      </DeliberateForm>
    </ModalDialog>
  );
}
