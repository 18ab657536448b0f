/**
 * The slots history's filters as the request sends them (spec §5): the provider value `all` is
 * dropped (no filter), codes go upper case, and choosing PRAGMATIC adds PRAGMATIC-NEW (the
 * newer Pragmatic integration, `pragmaticf` on our side).
 */
export function providersFilter(choice: string): string[] {
  const list = choice
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter((s) => s !== '' && s !== 'ALL');
  if (list.includes('PRAGMATIC') && !list.includes('PRAGMATIC-NEW')) list.push('PRAGMATIC-NEW');
  return [...new Set(list)];
}

export const ROUND_STATUSES = ['won', 'lost', 'refunded', 'open'] as const;
export type RoundStatus = (typeof ROUND_STATUSES)[number];

/** `all` → no filter; a status → that one. */
export const statusesFilter = (choice: string): string[] => (ROUND_STATUSES.includes(choice as RoundStatus) ? [choice] : []);

/**
 * The providers to choose from: the catalogue's, `pragmaticf` folded into Pragmatic (the filter
 * adds it back through PRAGMATIC-NEW), sorted by their names in the reader's language.
 */
export function providerOptions(list: readonly { name: string; displayName: string }[], lang: string): { value: string; label: string }[] {
  const seen = new Set<string>();
  const out: { value: string; label: string }[] = [];
  for (const p of list) {
    const code = p.name === 'pragmaticf' ? 'pragmatic' : p.name;
    if (seen.has(code)) continue;
    seen.add(code);
    out.push({ value: code, label: p.name === 'pragmaticf' ? 'Pragmatic' : p.displayName });
  }
  return out.sort((a, b) => a.label.localeCompare(b.label, lang));
}
