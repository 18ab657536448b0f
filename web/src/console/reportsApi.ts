/*
 * The reports' calls, injected into the console's API (one store, one cache, the staff session's
 * cookie and its "signed out" handling): `GET /api/admin/reports` (admin, finance:
 * `reports.read`) and the platform's currencies for the filter. The CSV export is no call of
 * the store: the page links to the same address with `format=csv` (reportPath).
 */
import type { ReplyOf, Settings } from '../api/types';
import { consoleApi } from './api';
import { reportPath, type ReportFilters } from './reports';

/** `GET /api/admin/reports`: rows, and the range's totals per currency. */
export type ReportReply = ReplyOf<'/api/admin/reports', 'get'>;

export const reportsApi = consoleApi.injectEndpoints({
  endpoints: (build) => ({
    report: build.query<ReportReply, ReportFilters>({
      query: (f) => ({ url: reportPath(f) }),
      // Figures move with every posting: a report seen a minute ago is asked again.
      keepUnusedDataFor: 60,
    }),
    /** The currencies the platform offers (`GET /api/site/settings`, public), for the filter. */
    reportCurrencies: build.query<string[], void>({
      query: () => ({ url: '/api/site/settings' }),
      transformResponse: (settings: Partial<Settings>) => [...new Set((settings.currencies ?? []).map((c) => c.toUpperCase()))].sort(),
      keepUnusedDataFor: 3600,
    }),
  }),
});

export const { useReportQuery, useReportCurrenciesQuery } = reportsApi;
