// @vitest-environment node
import { describe, expect, it } from 'vitest';
import studioEn from '../locales/en/studio.json';
import { STUDIO_TEXTS } from './texts';

function keys(obj: object, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) => (typeof v === 'object' && v !== null ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`]));
}
const leaves = (obj: object): string[] => Object.values(obj).flatMap((v) => (typeof v === 'object' && v !== null ? leaves(v as object) : [String(v)]));

describe('studio texts added in src/studio/texts.ts', () => {
  it('exist in English, French and Arabic with the same keys and placeholders', () => {
    const en = keys(STUDIO_TEXTS.en);
    expect(keys(STUDIO_TEXTS.fr)).toEqual(en);
    expect(keys(STUDIO_TEXTS.ar)).toEqual(en);
    const holders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    const [e, f, a] = [leaves(STUDIO_TEXTS.en), leaves(STUDIO_TEXTS.fr), leaves(STUDIO_TEXTS.ar)];
    e.forEach((s, i) => {
      expect(holders(f[i]!)).toEqual(holders(s));
      expect(holders(a[i]!)).toEqual(holders(s));
    });
  });

  it('write Arabic in Arabic script', () => {
    for (const s of leaves(STUDIO_TEXTS.ar)) expect(s).toMatch(/[\u0600-\u06FF]/);
  });

  it('do not collide with a key of the locale files (those would win silently)', () => {
    const existing = new Set(keys(studioEn));
    for (const k of keys(STUDIO_TEXTS.en)) expect(existing.has(k), k).toBe(false);
  });
});
