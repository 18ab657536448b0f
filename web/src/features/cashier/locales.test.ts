import { describe, expect, it } from 'vitest';
import enCashier from '../../locales/en/cashier.json';
import frCashier from '../../locales/fr/cashier.json';
import arCashier from '../../locales/ar/cashier.json';
import enDesk from '../../locales/en/desk.json';
import frDesk from '../../locales/fr/desk.json';
import arDesk from '../../locales/ar/desk.json';

/** Every key path, plural suffixes folded (each language has its own plural forms). */
function keys(o: unknown, prefix = ''): string[] {
  if (typeof o !== 'object' || o === null) return [prefix.replace(/_(zero|one|two|few|many|other)$/, '')];
  return [...new Set(Object.entries(o).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k)))].sort();
}

describe('cashier and desk texts', () => {
  it.each([
    ['cashier', enCashier, frCashier, arCashier],
    ['desk', enDesk, frDesk, arDesk],
  ])('%s: French and Arabic have every English key, and no other', (_ns, en, fr, ar) => {
    expect(keys(fr)).toEqual(keys(en));
    expect(keys(ar)).toEqual(keys(en));
  });

  it('has the spec success text', () => {
    expect(enCashier.requestSent).toBe('Withdrawal request sent successfully');
  });
});
