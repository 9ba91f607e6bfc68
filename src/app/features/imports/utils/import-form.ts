import type { IntlShape } from 'react-intl';
import { MAX_IMPORT_URL_LENGTH } from '../../../../contract/transfers';
import { ApiRequestError, isApiRequestError } from '../../../lib/api-error';
import { serverFieldErrors, type FieldErrors } from '../../../lib/form-errors';
import { currentIntl } from '../../../lib/intl';

export const importFields = ['url', 'name'] as const;
export type ImportField = (typeof importFields)[number];

/**
 * A full http(s) address. Whether plain http is allowed is the server's setting, unknown here: it is
 * let through, and the server's refusal is shown beside the field. While `typing`, only what is
 * wrong for certain is said (another scheme, too long), not the half-typed address.
 */
export function importUrlProblem(url: string, { typing }: { typing: boolean }, intl: IntlShape = currentIntl()): string | undefined {
  const trimmed = url.trim();
  if (trimmed.length > MAX_IMPORT_URL_LENGTH)
    return intl.formatMessage({ id: 'imports.url.tooLong', defaultMessage: 'Use at most {max, number} characters.' }, { max: MAX_IMPORT_URL_LENGTH });
  const httpsOnly = () => intl.formatMessage({ id: 'imports.url.httpsOnly', defaultMessage: 'Use an https:// address.' });
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'https' && scheme !== 'http' && (!typing || trimmed.length > scheme.length + 1)) {
    return httpsOnly();
  }
  if (typing) return undefined;
  if (trimmed === '') return intl.formatMessage({ id: 'imports.url.missing', defaultMessage: 'Enter the address of the file.' });
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return intl.formatMessage({ id: 'imports.url.notFull', defaultMessage: 'Enter a full address, such as https://example.com/report.pdf.' });
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return httpsOnly();
  return undefined;
}

/** The optional name: the server cleans names too, and its word is final. */
export function importNameProblem(name: string, intl: IntlShape = currentIntl()): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return undefined;
  if (trimmed.includes('/') || trimmed.includes('\\'))
    return intl.formatMessage({ id: 'imports.name.slash', defaultMessage: 'A file name cannot contain “/” or “\\”.' });
  if (trimmed.length > 255) return intl.formatMessage({ id: 'imports.name.tooLong', defaultMessage: 'Use at most {max, number} characters.' }, { max: 255 });
  return undefined;
}

/**
 * The server names a refused import's field by its place in the body (`imports.0.url`): the dialog
 * adds one import at a time, so that is the dialog's own `url` field.
 */
export function importServerErrors(error: unknown): FieldErrors<ImportField> {
  if (!isApiRequestError(error)) return {};
  const fields = error.fieldErrors.map(({ path, message }) => ({ path: path.replace(/^imports\.0\./, ''), message }));
  return serverFieldErrors(new ApiRequestError({ status: error.status, code: error.code, message: error.message, details: { ...error.details, fields } }), importFields);
}
