import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { printAST } from '@formatjs/icu-messageformat-parser/printer.js';
import appSource from '../../locales/app/en.json' with { type: 'json' };
import dashboardSource from '../../locales/dashboard/en.json' with { type: 'json' };

const pagesSource: Record<string, string> = { ...appSource, ...dashboardSource };

/**
 * A pseudo-language for tests: every message of the source catalogs (the pages' and the dashboard's) with each ASCII letter swapped for an accented
 * or look-alike one, 40 % longer, and between ⟦ ⟧. A page rendered in it shows at a glance what is not a message:
 * an ASCII letter outside a value (a file name, a size) is a word left in the code, and a sentence glued from pieces
 * shows as several ⟦ ⟧ where one was meant.
 */
const accented: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, i) => [letter, [...'ȧƀƈḓḗƒɠħīĵķŀḿƞǿƥɋřşŧŭṽẇẋẏẑȦƁƇḒḖƑƓĦĪĴĶĿḾȠǾƤɊŘŞŦŬṼẆẊẎẐ'][i]!]),
);

const accent = (text: string) => text.replace(/[A-Za-z]/g, (letter) => accented[letter]!);

function pseudoElements(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    if (element.type === TYPE.literal) return { ...element, value: accent(element.value) };
    if (element.type === TYPE.tag) return { ...element, children: pseudoElements(element.children) };
    if (element.type === TYPE.select || element.type === TYPE.plural) {
      return { ...element, options: Object.fromEntries(Object.entries(element.options).map(([key, option]) => [key, { ...option, value: pseudoElements(option.value) }])) };
    }
    return element;
  });
}

/** The pseudo-language's catalog: the same ids and placeholders as the source (the pages' English, or another given). */
export function pseudoMessages(source: Record<string, string> = pagesSource): Record<string, string> {
  return Object.fromEntries(
    Object.entries(source).map(([id, message]) => {
      // In words of five, as a longer language's are: a line can still break between them.
      const padding = ' ~~~~'.repeat(Math.ceil((message.length * 0.4) / 5)).trimStart();
      return [id, `⟦${printAST(pseudoElements(parse(message)))}${padding}⟧`];
    }),
  );
}

/** ASCII letters in a text that no message made: what the page says without a message. */
export function wordsOutsideMessages(text: string, values: readonly string[]): string[] {
  let rest = text;
  for (const value of values) rest = rest.split(value).join(' ');
  return rest.match(/[A-Za-z]{2,}/g) ?? [];
}
