import { describe, expect, it } from 'vitest';
import { BAD_RESPONSE, NETWORK_ERROR } from '../api/envelope';
import { errorText, MESSAGE_CODES } from './errors';
import enErrors from '../locales/en/errors.json';
import frErrors from '../locales/fr/errors.json';
import arErrors from '../locales/ar/errors.json';
import enCommon from '../locales/en/common.json';
import frCommon from '../locales/fr/common.json';
import arCommon from '../locales/ar/common.json';
import enAccount from '../locales/en/account.json';
import frAccount from '../locales/fr/account.json';
import arAccount from '../locales/ar/account.json';
import enStudio from '../locales/en/studio.json';
import frStudio from '../locales/fr/studio.json';
import arStudio from '../locales/ar/studio.json';

import openapiJson from '../../../docs/openapi.json';

const openapi = openapiJson as unknown as {
  components: { schemas: { ErrorCode: { 'x-error-codes': Record<string, unknown> } } };
};

function keys(obj: object, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    typeof v === 'object' && v !== null ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

const SPEC_CODES = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '15', '17', '21', '22', '101', '102', '103',
  '105', '106', '231', '501', '506', '507', '508', '999', '1489', '3301', '6252', '6252-1'];

describe('error catalogue', () => {
  it('has a message in every language for every server code and every spec §8 code', () => {
    const serverCodes = Object.keys(openapi.components.schemas.ErrorCode['x-error-codes']);
    for (const catalogue of [enErrors, frErrors, arErrors] as Record<string, unknown>[]) {
      for (const code of [...serverCodes, ...SPEC_CODES, 'default', 'bet', 'promocode']) {
        expect(catalogue[code], `code ${code}`).toBeTruthy();
      }
    }
    expect((enErrors as Record<string, unknown>).default).toBe('Request execution failed.');
  });

  it('keeps MESSAGE_CODES in step with the catalogue', () => {
    const numeric = Object.keys(enErrors).filter((k) => /^\d+$/.test(k)).map(Number).sort((a, b) => a - b);
    expect([...MESSAGE_CODES].sort((a, b) => a - b)).toEqual(numeric);
  });

  it('maps codes, ranges and 6252 to message keys', () => {
    expect(errorText({ code: 4 }).key[0]).toBe('errors:4');
    expect(errorText({ code: 650 }).key[0]).toBe('errors:bet');
    expect(errorText({ code: 2212 }).key[0]).toBe('errors:2212');
    expect(errorText({ code: 2201 }).key[0]).toBe('errors:2201');
    expect(errorText({ code: 6252, data: 125.5 }, 'default', { currency: 'TND' })).toEqual({
      key: ['errors:6252', 'errors:default', 'errors:default'],
      params: { value: '\u2066125.500 TND\u2069' },
    });
    expect(errorText({ code: 6252, data: { x: 1 } }).key[0]).toBe('errors:6252-1');
    expect(errorText({ code: 77777 }).key[0]).toBe('errors:default');
    expect(errorText({ code: NETWORK_ERROR }).key[0]).toBe('errors:network');
    expect(errorText({ code: BAD_RESPONSE }).key[0]).toBe('errors:network');
    expect(errorText({ code: 12345 }, 'recoveryFailed').key[0]).toBe('errors:recoveryFailed');
    expect(errorText(undefined).key).toContain('errors:default');
  });
});

describe('locales', () => {
  it('translate every key in French and Arabic', () => {
    for (const [en, fr, ar] of [
      [enCommon, frCommon, arCommon],
      [enAccount, frAccount, arAccount],
      [enErrors, frErrors, arErrors],
      [enStudio, frStudio, arStudio],
    ] as object[][]) {
      expect(keys(fr!)).toEqual(keys(en!));
      expect(keys(ar!)).toEqual(keys(en!));
    }
  });

  it('writes Arabic in Arabic script', () => {
    const arabic = keys(arCommon).filter((k) => /[\u0600-\u06FF]/.test(String(k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], arCommon))));
    expect(arabic.length / keys(arCommon).length).toBeGreaterThan(0.85);
  });
});
