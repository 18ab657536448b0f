import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import ar from '../locales/ar/console-reports.json';
import en from '../locales/en/console-reports.json';
import fr from '../locales/fr/console-reports.json';
import { GROUPINGS, QUICK_RANGES, sortKeys } from './reports';

type Tree = { [k: string]: string | Tree };
const flat = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v]] : Object.entries(flat(v, `${prefix}${k}.`)))),
  );
const PLURAL = /_(zero|one|two|few|many|other)$/;
const base = (keys: string[]) => [...new Set(keys.map((k) => k.replace(PLURAL, '')))].sort();
const LANGS = { en: flat(en as Tree), fr: flat(fr as Tree), ar: flat(ar as Tree) };

/** The files that read the `console-reports` namespace (their `tr(…)`). */
const FILES = ['pages/ReportsPage.tsx', 'charts/ReportCharts.tsx'].map((f) => join(__dirname, f));

describe('the reports texts (console-reports)', () => {
  it('have the same keys in English, French and Arabic, none empty, every plural form', () => {
    expect(base(Object.keys(LANGS.fr))).toEqual(base(Object.keys(LANGS.en)));
    expect(base(Object.keys(LANGS.ar))).toEqual(base(Object.keys(LANGS.en)));
    for (const [lang, texts] of Object.entries(LANGS)) {
      for (const [key, text] of Object.entries(texts)) expect(text.trim(), `${lang}: ${key}`).not.toBe('');
      const forms = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
      for (const key of base(Object.keys(texts).filter((k) => PLURAL.test(k)))) {
        for (const form of forms) expect(texts[`${key}_${form}`], `${lang}: ${key}_${form}`).toBeDefined();
      }
    }
  });

  it('keep the placeholders of the English text', () => {
    const names = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).filter((n) => n !== 'count').sort();
    for (const [key, text] of Object.entries(LANGS.en)) {
      for (const lang of ['fr', 'ar'] as const) {
        const other = LANGS[lang][key] ?? LANGS[lang][key.replace(PLURAL, '_other')];
        if (other !== undefined) expect(names(other), `${lang}: ${key}`).toEqual(names(text));
      }
    }
  });

  it('hold every key the page asks for, by name or by its lists', () => {
    const keys = new Set(base(Object.keys(LANGS.en)));
    const asked: string[] = [];
    for (const file of FILES) {
      const code = readFileSync(file, 'utf8');
      expect(code, file).toContain("useTranslation('console-reports')");
      for (const m of code.matchAll(/\btr\(\s*'([a-zA-Z0-9_.]+)'/g)) asked.push(m[1]!);
    }
    asked.push(...GROUPINGS.map((g) => `by.${g}`), ...QUICK_RANGES.map((q) => `filters.range.${q}`));
    for (const g of GROUPINGS) asked.push(...sortKeys(g).map((k) => `field.${k}`));
    asked.push(...['casino', 'sport', 'partner_sport', 'jackpot', 'payments', 'bonus', 'other'].map((p) => `product.${p}`));
    expect(asked.length).toBeGreaterThan(40);
    expect(asked.filter((k) => !keys.has(k))).toEqual([]);
  });
});
