import { useId } from 'react';
import { isLocale } from '../../../../contract/locales';
import { Card } from '../../../components/card';
import { FormError } from '../../../components/form-error';
import { LanguageOptions } from '../../../components/language-menu';
import { SelectField } from '../../../components/text-field';
import { useIntl } from '../../../lib/intl';
import { useSession } from '../../auth';
import { useSetOwnLanguage } from '../api/own-language';

/**
 * The person's own language: their dashboard's on every device, and their mail's. Choosing one saves it and serves
 * the page again in it; "the browser's" follows the language menu of the pages, else the browser's own.
 */
export function LanguageSetting() {
  const intl = useIntl();
  const headingId = useId();
  const session = useSession();
  const save = useSetOwnLanguage();
  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-4 text-lg font-semibold">
        {intl.formatMessage({ id: 'settings.language.heading', defaultMessage: 'Language' })}
      </h2>
      <FormError error={save.error} />
      <SelectField
        label={intl.formatMessage({ id: 'settings.language.label', defaultMessage: 'Your language' })}
        hint={intl.formatMessage({
          id: 'settings.language.hint',
          defaultMessage: 'The dashboard is shown in it wherever you sign in, and the mail sent to you is written in it. It is also the language of the mail to the people you send to, unless you choose theirs.',
        })}
        value={save.isPending ? (save.variables.language ?? '') : (session.user.language ?? '')}
        disabled={save.isPending}
        onChange={(event) => save.mutate({ language: isLocale(event.target.value) ? event.target.value : null })}
        className="max-w-md"
      >
        <option value="">{intl.formatMessage({ id: 'settings.language.browser', defaultMessage: 'The same as your browser’s' })}</option>
        <LanguageOptions />
      </SelectField>
    </Card>
  );
}
