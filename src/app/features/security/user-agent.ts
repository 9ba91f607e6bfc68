import type { IntlShape } from 'react-intl';
import { currentIntl } from '../../lib/intl';

/**
 * A browser's User-Agent as a person recognises it ("Firefox on Windows"), for the list of their
 * sessions. Only the common names: anything else reads as its first word, or "Unknown browser".
 */
export function describeUserAgent(userAgent: string | null, intl: IntlShape = currentIntl()): string {
  if (!userAgent) return intl.formatMessage({ id: 'security.userAgent.unknown', defaultMessage: 'Unknown browser' });
  const browser = [
    [/Edg(e|A|iOS)?\//, 'Edge'],
    [/OPR\/|Opera/, 'Opera'],
    [/Firefox\/|FxiOS\//, 'Firefox'],
    [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
    [/Safari\//, 'Safari'],
  ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1] as string | undefined;
  const system = [
    [/iPhone|iPad|iPod/, 'iOS'],
    [/Android/, 'Android'],
    [/Windows/, 'Windows'],
    [/Mac OS X|Macintosh/, 'macOS'],
    [/CrOS/, 'ChromeOS'],
    [/Linux/, 'Linux'],
  ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1] as string | undefined;
  if (browser && system) return intl.formatMessage({ id: 'security.userAgent.browserOnSystem', defaultMessage: '{browser} on {system}' }, { browser, system });
  return browser ?? system ?? userAgent.split(/[\s/]/)[0]!.slice(0, 40);
}
