import type { IntlShape } from 'react-intl';
import { isApiRequestError } from '../../../lib/api-error';
import { serverFieldErrors, type FieldErrors } from '../../../lib/form-errors';

export const webhookFields = ['url', 'events', 'description'] as const;
export type WebhookField = (typeof webhookFields)[number];

export const maxDescriptionLength = 500;
const maxUrlLength = 2048;

/**
 * A full http(s) URL. Whether it must be https, and whether its address is allowed, is the
 * server's call: it answers with a message shown next to the field.
 */
export function urlProblem(url: string, intl: IntlShape): string | undefined {
  const trimmed = url.trim();
  if (trimmed === '') return intl.formatMessage({ id: 'webhooks.validation.urlMissing', defaultMessage: 'Enter the URL to send events to' });
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return intl.formatMessage(
      { id: 'webhooks.validation.urlNotFull', defaultMessage: 'Enter a full URL, such as {example}' },
      { example: 'https://hooks.example.com/parcel' },
    );
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return intl.formatMessage({ id: 'webhooks.validation.urlScheme', defaultMessage: 'Use an https:// URL' });
  }
  if (trimmed.length > maxUrlLength) {
    return intl.formatMessage({ id: 'webhooks.validation.urlTooLong', defaultMessage: 'Use at most {max, number} characters' }, { max: maxUrlLength });
  }
  return undefined;
}

export function validateWebhookForm(
  { mode, url, description, events }: { mode: 'push' | 'pull'; url: string; description: string; events: ReadonlySet<string> },
  intl: IntlShape,
): FieldErrors<WebhookField> {
  return {
    url: mode === 'push' ? urlProblem(url, intl) : undefined,
    events: events.size === 0 ? intl.formatMessage({ id: 'webhooks.validation.noEvents', defaultMessage: 'Choose at least one event' }) : undefined,
    description:
      description.trim().length > maxDescriptionLength
        ? intl.formatMessage({ id: 'webhooks.validation.descriptionTooLong', defaultMessage: 'Use at most {max, number} characters' }, { max: maxDescriptionLength })
        : undefined,
  };
}

/**
 * The server's field errors, plus the reasons that belong to one field without naming it: a
 * refused address belongs to `url`, a paid event to `events`.
 */
export function webhookServerErrors(error: unknown): FieldErrors<WebhookField> {
  const byField = serverFieldErrors(error, webhookFields);
  if (isApiRequestError(error)) {
    const reason = error.details.reason;
    if (reason === 'forbidden_url' && !byField.url) byField.url = error.message;
    if (reason === 'paid_event' && !byField.events) byField.events = error.message;
  }
  return byField;
}
