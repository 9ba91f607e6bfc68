import type { IntlShape } from 'react-intl';
import { Button } from '../../../components/button';
import { CopyButton } from '../../../components/copy-button';
import { useIntl } from '../../../lib/intl';

/** The codes as a text file: one per line, with what they are for. */
function codesText(codes: string[], email: string, intl: IntlShape) {
  return [
    intl.formatMessage({ id: 'security.recoveryCodes.fileTitle', defaultMessage: 'Parcel recovery codes for {email}' }, { email }),
    intl.formatMessage({ id: 'security.recoveryCodes.fileExplanation', defaultMessage: 'Each code signs you in once, in place of a code from your authenticator app.' }),
    '',
    ...codes,
    '',
  ].join('\n');
}

function download(text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'parcel-recovery-codes.txt';
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Ten recovery codes, shown this once: copy them or save them as a file. */
export function RecoveryCodes({ codes, email }: { codes: string[]; email: string }) {
  const intl = useIntl();
  const text = codesText(codes, email, intl);
  return (
    <div>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        {intl.formatMessage({
          id: 'security.recoveryCodes.lead',
          defaultMessage: 'Keep these codes somewhere safe, such as a password manager. If you lose your phone, each one signs you in once. They are shown only now.',
        })}
      </p>
      <ul
        aria-label={intl.formatMessage({ id: 'security.recoveryCodes.listLabel', defaultMessage: 'Recovery codes' })}
        className="mt-3 grid grid-cols-2 gap-x-6 gap-y-1 rounded-md bg-zinc-50 p-3 font-mono text-sm dark:bg-zinc-950"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="mt-3 flex flex-wrap gap-2">
        <CopyButton text={text} label={intl.formatMessage({ id: 'security.recoveryCodes.copy', defaultMessage: 'Copy the codes' })} />
        <Button variant="secondary" onClick={() => download(text)}>
          {intl.formatMessage({ id: 'security.recoveryCodes.download', defaultMessage: 'Download' })}
        </Button>
      </div>
    </div>
  );
}
