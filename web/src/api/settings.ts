import { BAD_RESPONSE, fetchEnvelope, type EnvelopeResult } from './envelope';

/** `result` of `GET /api/site/settings`. Only the fields the shell uses are typed. */
export interface SiteSettingsWire {
  /** Default language, e.g. "en" (a list of language codes is accepted too). */
  lang: string | string[];
  /** Available languages, when the server sends them separately from `lang`. */
  languages?: string[];
  /** Currency codes the site accepts, e.g. ["EUR", "USD", "BTC"]. */
  currencies: string[];
}

export interface SiteSettings {
  defaultLang: string;
  languages: string[];
  currencies: string[];
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return value ? [value] : [];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v !== '');
  return [];
}

export function normalizeSettings(wire: SiteSettingsWire): SiteSettings {
  const langs = strings(wire.lang);
  const languages = [...new Set([...langs, ...strings(wire.languages)])];
  return {
    defaultLang: langs[0] ?? languages[0] ?? 'en',
    languages,
    currencies: [...new Set(strings(wire.currencies))],
  };
}

export async function loadSiteSettings(signal?: AbortSignal): Promise<EnvelopeResult<SiteSettings>> {
  const reply = await fetchEnvelope<SiteSettingsWire>('/api/site/settings', signal ? { signal } : undefined);
  if (!reply.ok) return reply;
  if (typeof reply.data !== 'object' || reply.data === null) {
    return { ok: false, code: BAD_RESPONSE, message: 'Site settings are missing from the server reply' };
  }
  return { ok: true, data: normalizeSettings(reply.data) };
}
