import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import ar from '../locales/ar/console.json';
import en from '../locales/en/console.json';
import fr from '../locales/fr/console.json';

type Tree = { [k: string]: string | Tree };
const flat = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v]] : Object.entries(flat(v, `${prefix}${k}.`)))),
  );
const PLURAL = /_(zero|one|two|few|many|other)$/;
const base = (keys: string[]) => [...new Set(keys.map((k) => k.replace(PLURAL, '')))].sort();
const LANGS = { en: flat(en as Tree), fr: flat(fr as Tree), ar: flat(ar as Tree) };

/** Every source file of the console (tests and helpers left out). */
function sources(dir = join(__dirname)): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : /\.tsx?$/.test(d.name) && !/\.test\.|testing/.test(d.name) ? [join(dir, d.name)] : [],
  );
}

describe('the console texts', () => {
  it('have the same keys in English, French and Arabic, none empty', () => {
    expect(base(Object.keys(LANGS.fr))).toEqual(base(Object.keys(LANGS.en)));
    expect(base(Object.keys(LANGS.ar))).toEqual(base(Object.keys(LANGS.en)));
    for (const [lang, texts] of Object.entries(LANGS)) {
      for (const [key, text] of Object.entries(texts)) {
        // Arabic's "zero" form of a line that never shows for zero may stay empty.
        if (lang === 'ar' && key.endsWith('_zero')) continue;
        expect(text.trim(), `${lang}: ${key}`).not.toBe('');
      }
    }
  });

  it('have every plural form each language needs', () => {
    for (const [lang, texts] of Object.entries(LANGS)) {
      const forms = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
      const plurals = base(Object.keys(texts).filter((k) => PLURAL.test(k)));
      for (const key of plurals) for (const form of forms) expect(texts[`${key}_${form}`], `${lang}: ${key}_${form}`).toBeDefined();
    }
  });

  it('keep the placeholders of the English text', () => {
    const names = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).filter((n) => n !== 'count').sort();
    for (const [key, text] of Object.entries(LANGS.en)) {
      for (const lang of ['fr', 'ar'] as const) {
        const other = LANGS[lang][key] ?? LANGS[lang][key.replace(PLURAL, '_other')];
        if (other === undefined) continue;
        expect(names(other), `${lang}: ${key}`).toEqual(names(text));
      }
    }
  });

  it('hold every key the console asks for by name', () => {
    const keys = new Set(base(Object.keys(LANGS.en)));
    const missing: string[] = [];
    for (const file of sources()) {
      const code = readFileSync(file, 'utf8');
      // Only the files whose texts live in this namespace (a page may bring its own).
      if (!/useTranslation\(\[?'console'/.test(code)) continue;
      for (const m of code.matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'/g)) if (!keys.has(m[1]!)) missing.push(`${file}: ${m[1]}`);
      for (const m of code.matchAll(/'console:([a-zA-Z0-9_.]+)'/g)) if (!keys.has(m[1]!)) missing.push(`${file}: ${m[1]}`);
    }
    expect(missing).toEqual([]);
  });
});
