import { api } from '../../api/api';

/*
 * The partner sportsbooks' three calls (spec §7 line 243), all in the usual envelope
 * `{status, result, error_message}`. Typed by hand: the server's side is being built in another
 * branch and src/api/schema.d.ts (generated from docs/openapi.json) does not have them yet. When it
 * does, replace these interfaces with `ReplyOf<'/digitain/front/token', 'get'>` and friends.
 */

/** `GET /digitain/front/token` (signed in only): the player's token and the frame's base address. */
export interface DigitainToken {
  token: string;
  url: string;
}
/** `GET /gr8/game_link?lang=` (signed in): the player's frame link, e.g. `https://…/en?jwt=…`. */
export interface Gr8GameLink {
  game_link: string;
}
/** `GET /gr8/frame?lang=` (guest): a frame to look at, without betting. */
export interface Gr8Frame {
  frame: string;
}

export const partnersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The argument is the signed-in player's id: another player's sign-in is another token, and a
     * sign-out (the hook skips) falls back to the guest placeholder (spec §4 "Digitain token").
     */
    digitainToken: build.query<DigitainToken, number>({
      query: () => ({ url: '/digitain/front/token' }),
      keepUnusedDataFor: 0,
    }),
    /** `player`: as above, a sign-in as someone else asks again. */
    gr8GameLink: build.query<Gr8GameLink, { lang: string; player: number }>({
      query: ({ lang }) => ({ url: `/gr8/game_link?lang=${encodeURIComponent(lang)}` }),
      keepUnusedDataFor: 0,
    }),
    gr8Frame: build.query<Gr8Frame, string>({
      query: (lang) => ({ url: `/gr8/frame?lang=${encodeURIComponent(lang)}` }),
    }),
  }),
});
