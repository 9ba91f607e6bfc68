import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { IntlShape } from 'react-intl';
import { FormError } from '../../../../components/form-error';
import { DialogActions, ModalDialog } from '../../../../components/modal-dialog';
import { TextField } from '../../../../components/text-field';
import { useIntl } from '../../../../lib/intl';
import type { BrowserItem } from '../../utils/browser-items';

interface NameDialogProps {
  title: string;
  label: string;
  initialName?: string;
  submitLabel: string;
  pendingLabel?: string;
  pending?: boolean;
  /** The server's answer when it refused (a name taken), shown in the dialog. */
  error?: unknown;
  /** A file's name is offered with its extension left out of the selection, as file managers do. */
  keepExtension?: boolean;
  onSubmit: (name: string) => void;
  onClose: () => void;
}

/** Checked before sending: the server cleans and checks names too, and its word is final. */
function nameProblem(name: string, intl: IntlShape): string | undefined {
  if (name.trim() === '') return intl.formatMessage({ id: 'collections.name.missing', defaultMessage: 'Give it a name.' });
  if (name.includes('/')) return intl.formatMessage({ id: 'collections.name.slash', defaultMessage: 'A name cannot contain “/”.' });
  if (name.trim() === '.' || name.trim() === '..') return intl.formatMessage({ id: 'collections.name.dots', defaultMessage: 'A name cannot be “.” or “..”.' });
  if (name.length > 255) return intl.formatMessage({ id: 'collections.name.tooLong', defaultMessage: 'A name can be at most {max, number} characters.' }, { max: 255 });
  return undefined;
}

/** One name to type: a new folder's, or an item's new one. */
export function NameDialog({
  title,
  label,
  initialName = '',
  submitLabel,
  pendingLabel,
  pending = false,
  error,
  keepExtension = false,
  onSubmit,
  onClose,
}: NameDialogProps) {
  const intl = useIntl();
  const [name, setName] = useState(initialName);
  const [touched, setTouched] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const field = input.current;
    if (!field) return;
    const dot = keepExtension ? field.value.lastIndexOf('.') : -1;
    field.setSelectionRange(0, dot > 0 ? dot : field.value.length);
  }, [keepExtension]);

  const problem = touched ? nameProblem(name, intl) : undefined;
  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (nameProblem(name, intl)) return;
    onSubmit(name.trim());
  }

  return (
    <ModalDialog title={title} onClose={onClose} busy={pending} initialFocus={input}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextField
          ref={input}
          label={label}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={problem}
          autoComplete="off"
          spellCheck={false}
          maxLength={255}
        />
        <FormError error={error} />
        <DialogActions onCancel={onClose} pending={pending} submitLabel={submitLabel} pendingLabel={pendingLabel} />
      </form>
    </ModalDialog>
  );
}

/** Renaming one item of a browser: its name offered, a file's extension left out of the selection. */
export function RenameDialog({ item, onRename, onClose }: { item: BrowserItem; onRename: (item: BrowserItem, name: string) => void; onClose: () => void }) {
  const intl = useIntl();
  return (
    <NameDialog
      title={intl.formatMessage({ id: 'collections.rename.title', defaultMessage: 'Rename “{name}”' }, { name: item.name })}
      label={intl.formatMessage({ id: 'collections.rename.label', defaultMessage: 'New name' })}
      initialName={item.name}
      keepExtension={item.kind === 'file'}
      submitLabel={intl.formatMessage({ id: 'collections.rename.submit', defaultMessage: 'Rename' })}
      onClose={onClose}
      onSubmit={(name) => {
        onClose();
        onRename(item, name);
      }}
    />
  );
}
