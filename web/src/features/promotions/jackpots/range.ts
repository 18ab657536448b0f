import { formatDay, monthAgo } from '../../../components/dates';
import type { JackpotListArgs } from '../api';

/** Spec §9: the history's page size; pages are numbered from 1. */
export const JACKPOT_PAGE_SIZE = 8;

/** Spec §5: the default range is a month ago → today. */
export function defaultRange(now = new Date()): { from: Date; to: Date } {
  return { from: monthAgo(now), to: now };
}

/** The request for a page: dd-MM-yyyy bounds, the end being the chosen end plus one day (spec §5). */
export function listArgs(from: Date, to: Date, page: number): JackpotListArgs {
  const end = new Date(to);
  end.setDate(end.getDate() + 1);
  return { date_from: formatDay(from), date_to: formatDay(end), limit: JACKPOT_PAGE_SIZE, offset: (Math.max(1, page) - 1) * JACKPOT_PAGE_SIZE };
}
