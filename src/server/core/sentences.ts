import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';

/**
 * A sentence the server says to a person in an answer (an error's `message`): its words in English, and what it
 * takes to write it in the reader's language (an ICU message with an id, extracted by `npm run i18n:extract` into
 * src/locales/errors/en.json, translated beside it). `said({ id, defaultMessage }, values)` is written where the
 * sentence is made, like the app's `intl.formatMessage`; the answer is translated where it is sent
 * (http/answer-language.ts). Values keep their own text: pass numbers as strings unless they should be grouped.
 */
export interface Sentence {
  readonly id: string;
  readonly defaultMessage: string;
  /** A value may itself be a sentence (a field's problem inside "Invalid body: …"): it is written in the same language. */
  readonly values: Readonly<Record<string, SentenceValue>>;
  /** The sentence in English: the error's `message` for logs, tests and any reader who asks for no other language. */
  readonly english: string;
}

const english: IntlShape = createIntl(
  {
    locale: 'en',
    defaultLocale: 'en',
    onError: (error) => {
      if (error.code !== 'MISSING_TRANSLATION') throw error;
    },
  },
  createIntlCache(),
);

export type SentenceValue = string | number | Sentence;

/** The values of a sentence with the sentences among them written by `write` (their English, or their translation). */
export function writtenValues(values: Readonly<Record<string, SentenceValue>>, write: (sentence: Sentence) => string): Record<string, string | number> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, isSentence(v) ? write(v) : v]));
}

export function said(descriptor: { id: string; defaultMessage: string; description?: string }, values: Record<string, SentenceValue> = {}): Sentence {
  const plain = writtenValues(values, (s) => s.english);
  return { id: descriptor.id, defaultMessage: descriptor.defaultMessage, values, english: english.formatMessage(descriptor, plain) };
}

export const isSentence = (value: unknown): value is Sentence =>
  typeof value === 'object' && value !== null && typeof (value as Sentence).id === 'string' && typeof (value as Sentence).english === 'string';
