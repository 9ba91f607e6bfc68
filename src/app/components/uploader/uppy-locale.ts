import type { Locale as UppyLocale } from '@uppy/core/utils';
import type { Locale } from '../../../contract/locales';

/**
 * Uppy's own words (the drop zone, its buttons, its notices) in the page's language, from Uppy's translations
 * (@uppy/locales): each fetched only by a page in that language. English is Uppy's own default.
 */
const packs: Record<Exclude<Locale, 'en'>, () => Promise<{ default: UppyLocale }>> = {
  de: () => import('@uppy/locales/lib/de_DE.js'),
  fr: () => import('@uppy/locales/lib/fr_FR.js'),
  es: () => import('@uppy/locales/lib/es_ES.js'),
  it: () => import('@uppy/locales/lib/it_IT.js'),
  nl: () => import('@uppy/locales/lib/nl_NL.js'),
  'pt-BR': () => import('@uppy/locales/lib/pt_BR.js'),
  pl: () => import('@uppy/locales/lib/pl_PL.js'),
  ja: () => import('@uppy/locales/lib/ja_JP.js'),
  ar: () => import('@uppy/locales/lib/ar_SA.js'),
};

export async function uppyLocale(locale: Locale): Promise<UppyLocale | null> {
  if (locale === 'en') return null;
  return (await packs[locale]()).default;
}
