// Configures zod before its first parse (see the file).
import '../../../lib/zod-config';
import type { IntlShape } from 'react-intl';
import { CollectionPasswordSchema, collectionPasswordProblem, type CollectionVisibility } from '../../../../contract/collections';
import { fieldProblemAtField } from '../../../lib/api-error';
import { currentIntl } from '../../../lib/intl';

/**
 * The password field of a collection form, checked by the API's own rules before anything is sent,
 * so the message comes at once and in words for a person. `hasPassword`: the collection is
 * password-protected now, so an empty field keeps its password. A collection that had one once and
 * was made public since still holds it, but only the server knows that (it keeps just a hash), and
 * the form asks for one as its label says: the owner then knows the password visitors will need.
 */
export function collectionPasswordFieldError(
  password: string,
  { visibility, hasPassword }: { visibility: CollectionVisibility; hasPassword: boolean },
  intl: IntlShape = currentIntl(),
): string | undefined {
  if (visibility !== 'password') return undefined;
  if (collectionPasswordProblem(visibility, password !== '', hasPassword))
    return intl.formatMessage({ id: 'collections.password.missing', defaultMessage: 'Choose a password for visitors to type.' });
  if (password === '') return undefined;
  const result = CollectionPasswordSchema.safeParse(password);
  return result.success ? undefined : fieldProblemAtField({ path: 'password', message: result.error.issues[0]!.message });
}
