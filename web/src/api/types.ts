/**
 * Types of the API contract, all derived from the generated `schema.d.ts`
 * (`npm run gen:api` from docs/openapi.json; `npm run check:api` fails when stale).
 */
import type { components, paths } from './schema';

export type Schemas = components['schemas'];

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** JSON request body of an operation. */
export type RequestBody<P extends keyof paths, M extends Method> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/**
 * `result` of the success envelope of an operation. The contract's 200 body is the success
 * envelope *or* the error envelope (a business refusal answers HTTP 200); the error
 * envelope is the member whose `error_message` is a plain string, and is left out here.
 */
export type ReplyOf<P extends keyof paths, M extends Method> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer E } } };
}
  ? Exclude<E, Schemas['ErrorEnvelope']> extends { result?: infer R }
    ? NonNullable<R>
    : never
  : never;

export type User = Schemas['UserReply'];
export type Session = Schemas['SessionReply'];
export type Balance = Schemas['BalanceReply'];
export type Profile = Schemas['ProfileReply'];
export type HistoryEntry = Schemas['HistoryEntryReply'];
export type Slide = Schemas['Slide'];
export type FlatPage = Schemas['FlatPage'];
export type OneClick = Schemas['OneClickReply'];

/** `GET /api/site/settings` is untyped in the contract: the fields the app reads. */
export interface Settings {
  lang: string;
  languages: string[];
  currencies: string[];
  defaultCurrency: string;
  phoneCodeSalt: string;
  phoneCountryCode: string;
  phoneLength: number;
  demo?: boolean;
  /** `bonus.registrationBonus`: what a new account is granted, in major units of `defaultCurrency` (0: nothing). */
  limits?: { cashback?: { minTransfer?: number }; bonus?: { registrationBonus?: number } };
}

/** A failed call: the envelope's code (or NETWORK_ERROR / BAD_RESPONSE) and data. */
export interface ApiError {
  code: number;
  message: string;
  data?: unknown;
}
