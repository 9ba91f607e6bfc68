import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { IntlShape } from 'react-intl';
import type { CreateApiKeyRequest } from '../../../../contract/dashboard';
import { paidOnlyScopes, scopes, type Scope } from '../../../../contract/scope-names';
import { Button } from '../../../components/button';
import { GatedCheckbox } from '../../../components/gated-checkbox';
import { FormError } from '../../../components/form-error';
import { TextField } from '../../../components/text-field';
import { serverFieldErrors, type FieldErrors } from '../../../lib/form-errors';
import { useIntl } from '../../../lib/intl';
import { scopeDescription } from '../../../lib/scope-descriptions';

const fields = ['name', 'scopes'] as const;
type Field = (typeof fields)[number];

interface CreateApiKeyFormProps {
  plan: 'free' | 'paid';
  pending: boolean;
  error: unknown;
  onCreate: (input: CreateApiKeyRequest, callbacks: { onError: (error: unknown) => void }) => void;
}

const maxNameLength = 100;
/** The API's suffix of a scope that changes things: code, never translated. */
const WRITE_SUFFIX = ':write';

function validate(name: string, chosen: ReadonlySet<Scope>, intl: IntlShape): FieldErrors<Field> {
  return {
    name:
      name.trim() === ''
        ? intl.formatMessage({ id: 'keys.validation.nameMissing', defaultMessage: 'Name the key' })
        : name.trim().length > maxNameLength
          ? intl.formatMessage({ id: 'keys.validation.nameTooLong', defaultMessage: 'Use at most {max, number} characters' }, { max: maxNameLength })
          : undefined,
    scopes: chosen.size === 0 ? intl.formatMessage({ id: 'keys.validation.noScopes', defaultMessage: 'Choose at least one scope' }) : undefined,
  };
}

export function CreateApiKeyForm({ plan, pending, error, onCreate }: CreateApiKeyFormProps) {
  const intl = useIntl();
  const scopesErrorId = useId();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<ReadonlySet<Scope>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const [fromServer, setFromServer] = useState<FieldErrors<Field>>({});
  const [focusRequest, setFocusRequest] = useState<{ field: Field } | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const firstScopeRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (focusRequest?.field === 'name') nameRef.current?.focus();
    if (focusRequest?.field === 'scopes') firstScopeRef.current?.focus();
  }, [focusRequest]);

  const isAllowed = (scope: Scope) => plan === 'paid' || !paidOnlyScopes.includes(scope);
  const allowed = scopes.filter(isAllowed);
  const allChosen = allowed.every((scope) => chosen.has(scope));
  const clientErrors = validate(name, chosen, intl);
  const errors: FieldErrors<Field> = {
    name: (attempted ? clientErrors.name : undefined) ?? fromServer.name,
    scopes: (attempted ? clientErrors.scopes : undefined) ?? fromServer.scopes,
  };

  function toggle(scope: Scope, on: boolean) {
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(scope);
      else next.delete(scope);
      return next;
    });
    setFromServer((current) => ({ ...current, scopes: undefined }));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setAttempted(true);
    setFromServer({});
    const invalid = fields.find((field) => clientErrors[field]);
    if (invalid) {
      setFocusRequest({ field: invalid });
      return;
    }
    onCreate(
      { name: name.trim(), scopes: scopes.filter((scope) => chosen.has(scope)) },
      {
        onError: (failure) => {
          const byField = serverFieldErrors(failure, fields);
          setFromServer(byField);
          const invalidOnServer = fields.find((field) => byField[field]);
          if (invalidOnServer) setFocusRequest({ field: invalidOnServer });
        },
      },
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5" aria-label={intl.formatMessage({ id: 'keys.createForm.label', defaultMessage: 'Create key' })}>
      <FormError error={error} docsLink />
      <TextField
        ref={nameRef}
        label={intl.formatMessage({ id: 'keys.createForm.nameLabel', defaultMessage: 'Name' })}
        hint={intl.formatMessage({ id: 'keys.createForm.nameHint', defaultMessage: 'To tell keys apart, e.g. “CI uploads”.' })}
        value={name}
        maxLength={maxNameLength}
        autoComplete="off"
        error={errors.name}
        onChange={(event) => {
          setName(event.target.value);
          setFromServer((current) => ({ ...current, name: undefined }));
        }}
      />
      <fieldset aria-describedby={errors.scopes ? scopesErrorId : undefined}>
        <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {intl.formatMessage({ id: 'keys.createForm.scopesLegend', defaultMessage: 'Scopes' })}
        </legend>
        <div className="mt-1 flex items-start justify-between gap-3">
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage(
              { id: 'keys.createForm.scopesHelp', defaultMessage: 'A key can do only what its scopes allow. A {write} scope includes reading the same resource.' },
              { write: <code key="write">{WRITE_SUFFIX}</code> },
            )}
          </p>
          <Button
            variant="secondary"
            className="shrink-0 px-2.5 py-1 text-xs"
            onClick={() => {
              setChosen(allChosen ? new Set() : new Set(allowed));
              setFromServer((current) => ({ ...current, scopes: undefined }));
            }}
          >
            {allChosen
              ? intl.formatMessage({ id: 'keys.createForm.clearAll', defaultMessage: 'Clear all' })
              : intl.formatMessage({ id: 'keys.createForm.selectAll', defaultMessage: 'Select all' })}
          </Button>
        </div>
        {errors.scopes ? (
          <p id={scopesErrorId} className="mt-2 text-sm text-red-700 dark:text-red-400">
            {errors.scopes}
          </p>
        ) : null}
        <ul className="mt-3 grid gap-2 sm:grid-cols-2 lg:grid-cols-1">
          {scopes.map((scope, index) => (
            <GatedCheckbox
              key={scope}
              name={scope}
              description={scopeDescription(scope, intl)}
              gateNote={intl.formatMessage({ id: 'keys.createForm.paidOnly', defaultMessage: 'Needs a paid plan' })}
              checked={chosen.has(scope)}
              disabled={!isAllowed(scope)}
              onChange={(on) => toggle(scope, on)}
              inputRef={index === 0 ? firstScopeRef : undefined}
            />
          ))}
        </ul>
      </fieldset>
      <Button type="submit" disabled={pending}>
        {pending
          ? intl.formatMessage({ id: 'keys.createForm.creating', defaultMessage: 'Creating…' })
          : intl.formatMessage({ id: 'keys.createForm.submit', defaultMessage: 'Create key' })}
      </Button>
    </form>
  );
}
