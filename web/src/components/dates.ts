/** dd-MM-yyyy, the app's date display format. */
export function formatDay(d: Date): string {
  const dd = String(d.getDate()).padStart(2, '0');
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  return `${dd}-${mm}-${d.getFullYear()}`;
}

/** Parses dd-MM-yyyy; null when it is not a real date. */
export function parseDay(text: string): Date | null {
  const m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(text.trim());
  if (!m) return null;
  const [, dd, mm, yyyy] = m;
  const d = new Date(Number(yyyy), Number(mm) - 1, Number(dd));
  return d.getDate() === Number(dd) && d.getMonth() === Number(mm) - 1 ? d : null;
}

/** yyyy-MM-dd (for `<input type=date>` and the API). */
export function isoDay(d: Date): string {
  const dd = String(d.getDate()).padStart(2, '0');
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  return `${d.getFullYear()}-${mm}-${dd}`;
}

export function fromIsoDay(text: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return m ? parseDay(`${m[3]}-${m[2]}-${m[1]}`) : null;
}

export function monthAgo(from = new Date()): Date {
  const d = new Date(from);
  d.setMonth(d.getMonth() - 1);
  return d;
}
