import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE, LOCALES } from '../contract/locales';
import { areaSource, CATALOG_AREAS } from './areas';

/**
 * Every catalog holds every message of its English source (src/locales/<area>/en.json, made by `npm run i18n:extract`
 * from the code, src/locales/areas.ts), and nothing else: a language never falls back to English in silence. Each translation keeps the
 * source's placeholders and tags (a page passes exactly those values) and uses plural forms its language has.
 */

const dir = path.dirname(fileURLToPath(import.meta.url));
const read = (area: string, locale: string): Record<string, string> => JSON.parse(fs.readFileSync(path.join(dir, area, `${locale}.json`), 'utf8'));

/** The arguments and tags a message uses, and the plural categories of each plural in it. */
function shapeOf(elements: MessageFormatElement[], shape = { names: new Set<string>(), plurals: [] as string[][] }) {
  for (const element of elements) {
    if (element.type === TYPE.argument || element.type === TYPE.number || element.type === TYPE.date || element.type === TYPE.time) shape.names.add(element.value);
    if (element.type === TYPE.tag) {
      shape.names.add(`<${element.value}>`);
      shapeOf(element.children, shape);
    }
    if (element.type === TYPE.select || element.type === TYPE.plural) {
      shape.names.add(element.value);
      if (element.type === TYPE.plural) shape.plurals.push(Object.keys(element.options));
      for (const option of Object.values(element.options)) shapeOf(option.value, shape);
    }
  }
  return shape;
}

describe.each(Object.entries(CATALOG_AREAS))('the %s catalogs', (area, { sources }) => {
  const source = read(area, DEFAULT_LOCALE);

  it('have a source that parses, with every message the code has (npm run i18n:extract is up to date)', () => {
    expect(Object.keys(source).length).toBeGreaterThan(0);
    for (const message of Object.values(source)) expect(() => parse(message)).not.toThrow();
    const root = path.resolve(dir, '../..');
    const extracted = execFileSync(
      path.join(root, 'node_modules/.bin/formatjs'),
      ['extract', ...sources, '--format', 'simple'],
      { cwd: root, encoding: 'utf8' },
    );
    expect(source, 'run npm run i18n:extract, then translate what it added').toEqual(areaSource(area, JSON.parse(extracted) as Record<string, string>));
  });

  describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s', (locale) => {
    const catalog = read(area, locale);
    const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories as string[];

    it('holds every message of the source and no other', () => {
      expect(Object.keys(catalog).sort()).toEqual(Object.keys(source).sort());
    });

    it('keeps each message’s placeholders and tags, with the plural forms of its language', () => {
      for (const [id, english] of Object.entries(source)) {
        const translated = catalog[id];
        if (translated === undefined) continue;
        expect(translated.trim(), `${locale} ${id} is empty`).not.toBe('');
        const want = shapeOf(parse(english));
        const got = shapeOf(parse(translated));
        expect([...got.names].sort(), `${locale} ${id}: placeholders`).toEqual([...want.names].sort());
        for (const forms of got.plurals) {
          expect(forms, `${locale} ${id}: a plural needs "other"`).toContain('other');
          for (const form of forms) {
            if (!form.startsWith('=')) expect(categories, `${locale} ${id}: "${form}" is no plural form of ${locale}`).toContain(form);
          }
        }
      }
    });
  });
});

describe('the pages’ two catalog sets', () => {
  it('give a message both use the same words, as the dashboard loads both into one page', () => {
    for (const locale of LOCALES) {
      const app = read('app', locale);
      const dashboard = read('dashboard', locale);
      for (const [id, words] of Object.entries(dashboard)) {
        if (id in app) expect(words, `${locale} ${id}: the same message in app and dashboard`).toBe(app[id]);
      }
    }
  });
});
