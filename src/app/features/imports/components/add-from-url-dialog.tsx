import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { DialogActions, ModalDialog } from '../../../components/modal-dialog';
import { TextField } from '../../../components/text-field';
import { firstInvalid, type FieldErrors } from '../../../lib/form-errors';
import { useIntl } from '../../../lib/intl';
import type { ImportToAdd } from '../api/import-status';
import { importFields, importNameProblem, importServerErrors, importUrlProblem, type ImportField } from '../utils/import-form';

interface AddFromUrlDialogProps {
  /** Where the file goes, said under the title. */
  description: ReactNode;
  /** Registers the import with its owner; the dialog closes once it resolves and shows why when it rejects. */
  onAdd: (request: ImportToAdd) => Promise<unknown>;
  onClose: () => void;
}

/**
 * "Add from URL": the address of a file the service fetches itself, and optionally its name. The
 * address is checked as it is typed (what is wrong for certain at once, the rest once the field is
 * left or the form sent); the server's refusal of a field (plain http where it is not allowed)
 * shows beside that field, anything else (no credit, too large) above the buttons.
 */
export function AddFromUrlDialog({ description, onAdd, onClose }: AddFromUrlDialogProps) {
  const intl = useIntl();
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [urlLeft, setUrlLeft] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const [fromServer, setFromServer] = useState<FieldErrors<ImportField>>({});
  const [focusRequest, setFocusRequest] = useState<{ field: ImportField } | null>(null);
  const urlInput = useRef<HTMLInputElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const adding = useMutation({ mutationFn: (request: ImportToAdd) => onAdd(request) });

  useEffect(() => {
    if (focusRequest) (focusRequest.field === 'url' ? urlInput : nameInput).current?.focus();
  }, [focusRequest]);

  const clientErrors: FieldErrors<ImportField> = {
    url: importUrlProblem(url, { typing: !urlLeft && !attempted }, intl),
    name: attempted ? importNameProblem(name, intl) : undefined,
  };
  const errors: FieldErrors<ImportField> = { url: clientErrors.url ?? fromServer.url, name: clientErrors.name ?? fromServer.name };
  const fieldErrorShown = Object.values(importServerErrors(adding.error)).some(Boolean);

  function submit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    setFromServer({});
    const problems: FieldErrors<ImportField> = { url: importUrlProblem(url, { typing: false }, intl), name: importNameProblem(name, intl) };
    const invalid = firstInvalid(problems, importFields);
    if (invalid) {
      setFocusRequest({ field: invalid });
      return;
    }
    const request: ImportToAdd = { url: url.trim(), ...(name.trim() ? { name: name.trim() } : {}) };
    adding.mutate(request, {
      onSuccess: () => onClose(),
      onError: (error) => {
        const byField = importServerErrors(error);
        setFromServer(byField);
        const refused = firstInvalid(byField, importFields);
        if (refused) setFocusRequest({ field: refused });
      },
    });
  }

  return (
    <ModalDialog title={intl.formatMessage({ id: 'imports.dialog.title', defaultMessage: 'Add from URL' })} description={description} onClose={onClose} busy={adding.isPending} initialFocus={urlInput}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <TextField
          ref={urlInput}
          label={intl.formatMessage({ id: 'imports.dialog.urlLabel', defaultMessage: 'File URL' })}
          type="url"
          inputMode="url"
          placeholder={intl.formatMessage({ id: 'imports.dialog.urlPlaceholder', defaultMessage: 'https://example.com/report.pdf' })}
          hint={intl.formatMessage({
            id: 'imports.dialog.urlHint',
            defaultMessage: 'The service fetches the file from this address: an https link, such as a download or a signed link to a bucket.',
          })}
          value={url}
          maxLength={8192}
          autoComplete="off"
          spellCheck={false}
          error={errors.url}
          onBlur={() => setUrlLeft(url.trim() !== '' || attempted)}
          onChange={(event) => {
            setUrl(event.target.value);
            setFromServer((current) => ({ ...current, url: undefined }));
          }}
        />
        <TextField
          ref={nameInput}
          label={intl.formatMessage({ id: 'imports.dialog.nameLabel', defaultMessage: 'File name (optional)' })}
          hint={intl.formatMessage({ id: 'imports.dialog.nameHint', defaultMessage: 'Leave empty to use the name the other server gives, or the last part of the address.' })}
          value={name}
          maxLength={255}
          autoComplete="off"
          spellCheck={false}
          error={errors.name}
          onChange={(event) => {
            setName(event.target.value);
            setFromServer((current) => ({ ...current, name: undefined }));
          }}
        />
        <FormError error={fieldErrorShown ? null : adding.error} />
        <DialogActions
          onCancel={onClose}
          pending={adding.isPending}
          submitLabel={intl.formatMessage({ id: 'imports.dialog.add', defaultMessage: 'Add' })}
          pendingLabel={intl.formatMessage({ id: 'imports.dialog.adding', defaultMessage: 'Adding…' })}
        />
      </form>
    </ModalDialog>
  );
}

/** The page's button that opens the dialog, with the glyph of a link. */
export function AddFromUrlButton({ onClick, variant = 'secondary' }: { onClick: () => void; variant?: 'primary' | 'secondary' }) {
  const intl = useIntl();
  return (
    <Button variant={variant} onClick={onClick}>
      <svg aria-hidden="true" focusable="false" viewBox="0 0 20 20" className="size-4 shrink-0" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round">
        <path d="M8.5 11.5a3.5 3.5 0 0 0 5 0l2.5-2.5a3.5 3.5 0 0 0-5-5l-1 1" />
        <path d="M11.5 8.5a3.5 3.5 0 0 0-5 0L4 11a3.5 3.5 0 0 0 5 5l1-1" />
      </svg>
      {intl.formatMessage({ id: 'imports.addFromUrl', defaultMessage: 'Add from URL' })}
    </Button>
  );
}
