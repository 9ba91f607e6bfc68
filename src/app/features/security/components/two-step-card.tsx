import { useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { IntlShape } from 'react-intl';
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
import { useIntl } from '../../../lib/intl';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { useSession } from '../../auth';
import { twoStepQueryOptions, useDisableTwoStep, useEnableTwoStep, useRegenerateRecoveryCodes, useStartTwoStepSetup } from '../api/security-api';
import { RecoveryCodes } from './recovery-codes';

const codeError = (code: string, intl: IntlShape) =>
  /^\d{6}$/.test(code.replace(/\s+/g, ''))
    ? undefined
    : intl.formatMessage({ id: 'security.twoStep.codeInvalid', defaultMessage: 'Enter the 6-digit code from your authenticator app' });

const passwordMissing = (intl: IntlShape) => intl.formatMessage({ id: 'security.twoStep.passwordMissing', defaultMessage: 'Enter your password' });

type Dialog = { kind: 'setup'; setup: TwoStepSetup } | { kind: 'codes'; codes: string[] } | { kind: 'disable' } | { kind: 'regenerate' };

/** Settings → Security: two-step verification with an authenticator app, and its recovery codes. */
export function TwoStepCard() {
  const intl = useIntl();
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
          {intl.formatMessage({ id: 'security.twoStep.heading', defaultMessage: 'Two-step verification' })}
        </h2>
        {status.enabled ? (
          <Badge tone="success">{intl.formatMessage({ id: 'security.twoStep.on', defaultMessage: 'On' })}</Badge>
        ) : (
          <Badge>{intl.formatMessage({ id: 'security.twoStep.off', defaultMessage: 'Off' })}</Badge>
        )}
      </div>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {status.enabled
          ? intl.formatMessage(
              {
                id: 'security.twoStep.enabledLead',
                defaultMessage: 'Signing in asks for a code from your authenticator app after your password. On since {date}; {left, number} of {total, number} recovery codes left.',
              },
              { date: formatDate(status.enabledAt!), left: status.recoveryCodesLeft, total: 10 },
            )
          : intl.formatMessage({
              id: 'security.twoStep.disabledLead',
              defaultMessage:
                'Ask for a code from an authenticator app (such as 1Password, Google Authenticator or Aegis) after your password, so a stolen password alone does not open your account.',
            })}
      </p>
      <FormError error={start.error} />
      <div className="mt-4 flex flex-wrap gap-2">
        {status.enabled ? (
          <>
            <Button variant="secondary" onClick={() => setDialog({ kind: 'regenerate' })}>
              {intl.formatMessage({ id: 'security.twoStep.newCodes', defaultMessage: 'New recovery codes' })}
            </Button>
            <Button variant="secondary" onClick={() => setDialog({ kind: 'disable' })}>
              {intl.formatMessage({ id: 'security.twoStep.turnOff', defaultMessage: 'Turn off' })}
            </Button>
          </>
        ) : (
          <Button disabled={start.isPending} onClick={() => start.mutate(undefined, { onSuccess: (setup) => setDialog({ kind: 'setup', setup }) })}>
            {start.isPending
              ? intl.formatMessage({ id: 'security.twoStep.starting', defaultMessage: 'Starting…' })
              : intl.formatMessage({ id: 'security.twoStep.setUp', defaultMessage: 'Set up an authenticator app' })}
          </Button>
        )}
      </div>
      {dialog?.kind === 'setup' ? <SetupDialog setup={dialog.setup} email={session.user.email} onClose={close} onEnabled={(codes) => setDialog({ kind: 'codes', codes })} /> : null}
      {dialog?.kind === 'codes' ? (
        <ModalDialog title={intl.formatMessage({ id: 'security.twoStep.saveCodesTitle', defaultMessage: 'Save your recovery codes' })} onClose={close}>
          <RecoveryCodes codes={dialog.codes} email={session.user.email} />
          <div className="mt-6 flex justify-end">
            <Button onClick={close}>{intl.formatMessage({ id: 'security.twoStep.savedThem', defaultMessage: 'I have saved them' })}</Button>
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
  const intl = useIntl();
  const enable = useEnableTwoStep();
  const form = useValidatedForm(setupFields, { code: '', password: '' }, (v) => ({
    code: codeError(v.code, intl),
    password: v.password === '' ? passwordMissing(intl) : undefined,
  }));
  const onSubmit = form.handleSubmit((values) => enable.mutate(values, { onSuccess: ({ recoveryCodes }) => onEnabled(recoveryCodes), onError: form.showServerErrors }));
  return (
    <ModalDialog title={intl.formatMessage({ id: 'security.twoStep.setupTitle', defaultMessage: 'Set up an authenticator app' })} onClose={onClose} busy={enable.isPending}>
      <ol className="list-decimal space-y-4 ps-5 text-sm text-zinc-700 dark:text-zinc-300">
        <li>
          <p>{intl.formatMessage({ id: 'security.twoStep.scan', defaultMessage: 'Scan this code with your authenticator app.' })}</p>
          <div className="mt-2">
            <QrCode
              value={setup.uri}
              label={intl.formatMessage({ id: 'security.twoStep.qrCode', defaultMessage: 'QR code to add Parcel ({email}) to an authenticator app' }, { email })}
              size={176}
            />
          </div>
          <p className="mt-2">{intl.formatMessage({ id: 'security.twoStep.cannotScan', defaultMessage: 'Cannot scan? Enter this key in the app instead:' })}</p>
          <div className="mt-1 flex flex-wrap items-center gap-2">
            <code data-testid="two-step-secret" className="rounded bg-zinc-100 px-2 py-1 font-mono text-xs break-all dark:bg-zinc-800">
              {setup.secret}
            </code>
            <CopyButton
              text={setup.secret}
              label={intl.formatMessage({ id: 'security.twoStep.copy', defaultMessage: 'Copy' })}
              accessibleName={intl.formatMessage({ id: 'security.twoStep.copyKey', defaultMessage: 'Copy the key' })}
            />
          </div>
        </li>
        <li>
          <p>{intl.formatMessage({ id: 'security.twoStep.confirmStep', defaultMessage: 'Enter the code the app shows, and your password, to turn it on.' })}</p>
          <form noValidate onSubmit={onSubmit} className="mt-2 space-y-3">
            <FormError error={enable.error} />
            <TextField
              label={intl.formatMessage({ id: 'security.twoStep.appCodeLabel', defaultMessage: 'Code from the app' })}
              autoComplete="one-time-code"
              inputMode="numeric"
              {...form.field('code')}
            />
            <TextField
              label={intl.formatMessage({ id: 'security.twoStep.setupPasswordLabel', defaultMessage: 'Your password' })}
              type="password"
              autoComplete="current-password"
              {...form.field('password')}
            />
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="secondary" onClick={onClose} disabled={enable.isPending}>
                {intl.formatMessage({ id: 'security.twoStep.setupCancel', defaultMessage: 'Cancel' })}
              </Button>
              <Button type="submit" disabled={enable.isPending}>
                {enable.isPending
                  ? intl.formatMessage({ id: 'security.twoStep.turningOn', defaultMessage: 'Turning on…' })
                  : intl.formatMessage({ id: 'security.twoStep.turnOn', defaultMessage: 'Turn on' })}
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
  const intl = useIntl();
  const disable = useDisableTwoStep();
  const regenerate = useRegenerateRecoveryCodes();
  const mutation = purpose === 'disable' ? disable : regenerate;
  const [withPassword, setWithPassword] = useState(false);
  // One of the two is asked for at a time; the other is neither checked nor sent.
  const form = useValidatedForm(identityFields, { code: '', password: '' }, (v) =>
    withPassword
      ? { password: v.password === '' ? passwordMissing(intl) : undefined }
      : {
          code:
            v.code.trim() === ''
              ? intl.formatMessage({ id: 'security.twoStep.identityCodeMissing', defaultMessage: 'Enter a code from your app, or a recovery code' })
              : undefined,
        },
  );
  const onSubmit = form.handleSubmit(({ code, password }) => {
    const input = withPassword ? { password } : { code: code.trim() };
    const onError = (error: unknown) => form.showServerErrors(error);
    if (purpose === 'disable') disable.mutate(input, { onSuccess: () => onDone(), onError });
    else regenerate.mutate(input, { onSuccess: ({ recoveryCodes }) => onDone(recoveryCodes), onError });
  });
  const title =
    purpose === 'disable'
      ? intl.formatMessage({ id: 'security.twoStep.disableTitle', defaultMessage: 'Turn off two-step verification?' })
      : intl.formatMessage({ id: 'security.twoStep.regenerateTitle', defaultMessage: 'Make new recovery codes?' });
  return (
    <ModalDialog
      title={title}
      description={
        purpose === 'disable'
          ? intl.formatMessage({
              id: 'security.twoStep.disableDescription',
              defaultMessage: 'Signing in will ask for your password only. Your recovery codes stop working, and you are signed out everywhere else.',
            })
          : intl.formatMessage({ id: 'security.twoStep.regenerateDescription', defaultMessage: 'Your old recovery codes stop working, used or not.' })
      }
      onClose={onClose}
      busy={mutation.isPending}
    >
      <form noValidate onSubmit={onSubmit} className="space-y-3">
        <FormError error={mutation.error} />
        {withPassword ? (
          <TextField
            key="password"
            label={intl.formatMessage({ id: 'security.twoStep.identityPasswordLabel', defaultMessage: 'Your password' })}
            type="password"
            autoComplete="current-password"
            {...form.field('password')}
          />
        ) : (
          <TextField
            key="code"
            label={intl.formatMessage({ id: 'security.twoStep.identityCodeLabel', defaultMessage: 'Code from your app, or a recovery code' })}
            autoComplete="one-time-code"
            {...form.field('code')}
          />
        )}
        <button type="button" className="text-sm font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300" onClick={() => setWithPassword((w) => !w)}>
          {withPassword
            ? intl.formatMessage({ id: 'security.twoStep.useCode', defaultMessage: 'Use a code instead' })
            : intl.formatMessage({ id: 'security.twoStep.usePassword', defaultMessage: 'Use your password instead' })}
        </button>
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={mutation.isPending}>
            {intl.formatMessage({ id: 'security.twoStep.identityCancel', defaultMessage: 'Cancel' })}
          </Button>
          <Button type="submit" variant={purpose === 'disable' ? 'danger' : 'primary'} disabled={mutation.isPending}>
            {purpose === 'disable'
              ? disable.isPending
                ? intl.formatMessage({ id: 'security.twoStep.turningOff', defaultMessage: 'Turning off…' })
                : intl.formatMessage({ id: 'security.twoStep.confirmTurnOff', defaultMessage: 'Turn off' })
              : regenerate.isPending
                ? intl.formatMessage({ id: 'security.twoStep.makingCodes', defaultMessage: 'Making codes…' })
                : intl.formatMessage({ id: 'security.twoStep.makeCodes', defaultMessage: 'Make new codes' })}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
