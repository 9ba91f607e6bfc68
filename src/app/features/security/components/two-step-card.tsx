import { useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { TwoStepSetup } from '../../../../contract/security';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { CopyButton } from '../../../components/copy-button';
import { FormError } from '../../../components/form-error';
import { ModalDialog } from '../../../components/modal-dialog';
import { QrCode } from '../../../components/qr-code';
import { TextField } from '../../../components/text-field';
import { formatDate } from '../../../lib/format';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { useSession } from '../../auth';
import { twoStepQueryOptions, useDisableTwoStep, useEnableTwoStep, useRegenerateRecoveryCodes, useStartTwoStepSetup } from '../api/security-api';
import { RecoveryCodes } from './recovery-codes';

const codeError = (code: string) => (/^\d{6}$/.test(code.replace(/\s+/g, '')) ? undefined : 'Enter the 6-digit code from your authenticator app');

type Dialog = { kind: 'setup'; setup: TwoStepSetup } | { kind: 'codes'; codes: string[] } | { kind: 'disable' } | { kind: 'regenerate' };

/** Settings → Security: two-step verification with an authenticator app, and its recovery codes. */
export function TwoStepCard() {
  const { data: status } = useSuspenseQuery(twoStepQueryOptions());
  const session = useSession();
  const start = useStartTwoStepSetup();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const headingId = useId();
  const close = () => setDialog(null);
  return (
    <Card aria-labelledby={headingId}>
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          Two-step verification
        </h2>
        {status.enabled ? <Badge tone="success">On</Badge> : <Badge>Off</Badge>}
      </div>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {status.enabled
          ? `Signing in asks for a code from your authenticator app after your password. On since ${formatDate(status.enabledAt!)}; ${status.recoveryCodesLeft} of 10 recovery codes left.`
          : 'Ask for a code from an authenticator app (such as 1Password, Google Authenticator or Aegis) after your password, so a stolen password alone does not open your account.'}
      </p>
      <FormError error={start.error} />
      <div className="mt-4 flex flex-wrap gap-2">
        {status.enabled ? (
          <>
            <Button variant="secondary" onClick={() => setDialog({ kind: 'regenerate' })}>
              New recovery codes
            </Button>
            <Button variant="secondary" onClick={() => setDialog({ kind: 'disable' })}>
              Turn off
            </Button>
          </>
        ) : (
          <Button disabled={start.isPending} onClick={() => start.mutate(undefined, { onSuccess: (setup) => setDialog({ kind: 'setup', setup }) })}>
            {start.isPending ? 'Starting…' : 'Set up an authenticator app'}
          </Button>
        )}
      </div>
      {dialog?.kind === 'setup' ? <SetupDialog setup={dialog.setup} email={session.user.email} onClose={close} onEnabled={(codes) => setDialog({ kind: 'codes', codes })} /> : null}
      {dialog?.kind === 'codes' ? (
        <ModalDialog title="Save your recovery codes" onClose={close}>
          <RecoveryCodes codes={dialog.codes} email={session.user.email} />
          <div className="mt-6 flex justify-end">
            <Button onClick={close}>I have saved them</Button>
          </div>
        </ModalDialog>
      ) : null}
      {dialog?.kind === 'disable' ? <IdentityDialog purpose="disable" onClose={close} onDone={close} /> : null}
      {dialog?.kind === 'regenerate' ? <IdentityDialog purpose="regenerate" onClose={close} onDone={(codes) => setDialog({ kind: 'codes', codes: codes ?? [] })} /> : null}
    </Card>
  );
}

const setupFields = ['code', 'password'] as const;

/** Scan (or type) the secret, then confirm with a first code and the password. */
function SetupDialog({ setup, email, onClose, onEnabled }: { setup: TwoStepSetup; email: string; onClose: () => void; onEnabled: (codes: string[]) => void }) {
  const enable = useEnableTwoStep();
  const form = useValidatedForm(setupFields, { code: '', password: '' }, (v) => ({
    code: codeError(v.code),
    password: v.password === '' ? 'Enter your password' : undefined,
  }));
  const onSubmit = form.handleSubmit((values) => enable.mutate(values, { onSuccess: ({ recoveryCodes }) => onEnabled(recoveryCodes), onError: form.showServerErrors }));
  return (
    <ModalDialog title="Set up an authenticator app" onClose={onClose} busy={enable.isPending}>
      <ol className="list-decimal space-y-4 pl-5 text-sm text-zinc-700 dark:text-zinc-300">
        <li>
          <p>Scan this code with your authenticator app.</p>
          <div className="mt-2">
            <QrCode value={setup.uri} label={`QR code to add Parcel (${email}) to an authenticator app`} size={176} />
          </div>
          <p className="mt-2">Cannot scan? Enter this key in the app instead:</p>
          <div className="mt-1 flex flex-wrap items-center gap-2">
            <code data-testid="two-step-secret" className="rounded bg-zinc-100 px-2 py-1 font-mono text-xs break-all dark:bg-zinc-800">
              {setup.secret}
            </code>
            <CopyButton text={setup.secret} label="Copy" accessibleName="Copy the key" />
          </div>
        </li>
        <li>
          <p>Enter the code the app shows, and your password, to turn it on.</p>
          <form noValidate onSubmit={onSubmit} className="mt-2 space-y-3">
            <FormError error={enable.error} />
            <TextField label="Code from the app" autoComplete="one-time-code" inputMode="numeric" {...form.field('code')} />
            <TextField label="Your password" type="password" autoComplete="current-password" {...form.field('password')} />
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="secondary" onClick={onClose} disabled={enable.isPending}>
                Cancel
              </Button>
              <Button type="submit" disabled={enable.isPending}>
                {enable.isPending ? 'Turning on…' : 'Turn on'}
              </Button>
            </div>
          </form>
        </li>
      </ol>
    </ModalDialog>
  );
}

const identityFields = ['code', 'password'] as const;

/** Turning two-step verification off, or new recovery codes: first a current code, or the password. */
function IdentityDialog({ purpose, onClose, onDone }: { purpose: 'disable' | 'regenerate'; onClose: () => void; onDone: (codes?: string[]) => void }) {
  const disable = useDisableTwoStep();
  const regenerate = useRegenerateRecoveryCodes();
  const mutation = purpose === 'disable' ? disable : regenerate;
  const [withPassword, setWithPassword] = useState(false);
  // One of the two is asked for at a time; the other is neither checked nor sent.
  const form = useValidatedForm(identityFields, { code: '', password: '' }, (v) =>
    withPassword ? { password: v.password === '' ? 'Enter your password' : undefined } : { code: v.code.trim() === '' ? 'Enter a code from your app, or a recovery code' : undefined },
  );
  const onSubmit = form.handleSubmit(({ code, password }) => {
    const input = withPassword ? { password } : { code: code.trim() };
    const onError = (error: unknown) => form.showServerErrors(error);
    if (purpose === 'disable') disable.mutate(input, { onSuccess: () => onDone(), onError });
    else regenerate.mutate(input, { onSuccess: ({ recoveryCodes }) => onDone(recoveryCodes), onError });
  });
  const title = purpose === 'disable' ? 'Turn off two-step verification?' : 'Make new recovery codes?';
  return (
    <ModalDialog
      title={title}
      description={
        purpose === 'disable'
          ? 'Signing in will ask for your password only. Your recovery codes stop working, and you are signed out everywhere else.'
          : 'Your old recovery codes stop working, used or not.'
      }
      onClose={onClose}
      busy={mutation.isPending}
    >
      <form noValidate onSubmit={onSubmit} className="space-y-3">
        <FormError error={mutation.error} />
        {withPassword ? (
          <TextField key="password" label="Your password" type="password" autoComplete="current-password" {...form.field('password')} />
        ) : (
          <TextField key="code" label="Code from your app, or a recovery code" autoComplete="one-time-code" {...form.field('code')} />
        )}
        <button type="button" className="text-sm font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300" onClick={() => setWithPassword((w) => !w)}>
          {withPassword ? 'Use a code instead' : 'Use your password instead'}
        </button>
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={mutation.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant={purpose === 'disable' ? 'danger' : 'primary'} disabled={mutation.isPending}>
            {purpose === 'disable' ? (disable.isPending ? 'Turning off…' : 'Turn off') : regenerate.isPending ? 'Making codes…' : 'Make new codes'}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
