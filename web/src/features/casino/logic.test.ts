import { describe, expect, it } from 'vitest';
import { gridLayout, gridWindow } from './grid';
import {
  categoriesOf,
  categoryOf,
  filterGames,
  formatRtp,
  gameHref,
  gameRtp,
  isProviderBanned,
  providerAlias,
  providerDisplayName,
  pseudoRtp,
  rowGames,
  similarGames,
  viewAllHref,
  withProvider,
} from './logic';
import { game } from './fixtures';


describe('RTP (spec §4)', () => {
  it('is 96, 97 or 98 from the name and the UTC hour, whatever the minute', () => {
    const seen = new Set<number>();
    for (let h = 0; h < 24; h += 1) {
      const at = new Date(Date.UTC(2026, 10, 22, h, 0, 0));
      const later = new Date(Date.UTC(2026, 10, 22, h, 59, 59));
      const v = pseudoRtp('Book of Ra', at);
      expect([96, 97, 98]).toContain(v);
      expect(pseudoRtp('Book of Ra', later)).toBe(v);
      seen.add(v);
    }
    // It changes with the hour (not a constant).
    expect(seen.size).toBeGreaterThan(1);
    // Same name and hour on another day: the same value (the hour of day, UTC).
    expect(pseudoRtp('Book of Ra', new Date(Date.UTC(2026, 0, 1, 5)))).toBe(pseudoRtp('Book of Ra', new Date(Date.UTC(2026, 10, 22, 5))));
  });

  it('uses the UTC hour, not the local one', () => {
    const d = new Date(Date.UTC(2026, 10, 22, 13, 30));
    expect(pseudoRtp('X', d)).toBe(pseudoRtp('X', new Date(Date.UTC(2026, 10, 22, 13, 0))));
  });

  it('prefers the declared RTP, and falls back to the rule only when it is null', () => {
    const now = new Date(Date.UTC(2026, 10, 22, 9));
    expect(gameRtp({ name: 'Desert Gold', rtp: 96.12 }, now)).toEqual({ value: 96.12, declared: true });
    expect(formatRtp(gameRtp({ name: 'Desert Gold', rtp: 96.1 }, now))).toBe('96.10%');
    const fallback = gameRtp({ name: 'Desert Gold', rtp: null }, now);
    expect(fallback.declared).toBe(false);
    expect(formatRtp(fallback)).toBe(`${pseudoRtp('Desert Gold', now)}%`);
    // The locale's separator: one number format per language.
    expect(formatRtp({ value: 96.5, declared: true }, 'fr')).toBe('96,50\u00a0%');
  });
});

describe('provider names (spec §2, §3, §9)', () => {
  it('aliases and display names', () => {
    expect(providerAlias('pragmaticf')).toBe('pragmatic');
    expect(providerAlias('PragmaticLive')).toBe('pragmatic');
    expect(providerAlias('evolutionlive')).toBe('evolution');
    expect(providerAlias('outcome_amatic')).toBe('amatic');
    expect(providerAlias('studio')).toBe('studio');
    expect(providerDisplayName('pragmaticf')).toBe('Pragmatic');
    expect(providerDisplayName('outcome_amatic', 'Outcome Amatic')).toBe('Amatic');
    expect(providerDisplayName('studio', 'Carthage Studio')).toBe('Carthage Studio');
    expect(providerDisplayName('netent')).toBe('NetEnt');
    expect(providerDisplayName('playngo')).toBe("Play'n GO");
    expect(providerDisplayName('spinmatic')).toBe('Spinmatic');
  });

  it('banned providers, by name, alias, and outcome_amatic with outcome or amatic', () => {
    expect(isProviderBanned('studio', [])).toBe(false);
    expect(isProviderBanned('Studio', ['studio'])).toBe(true);
    expect(isProviderBanned('pragmaticf', ['pragmatic'])).toBe(true);
    expect(isProviderBanned('outcome_amatic', ['outcome'])).toBe(true);
    expect(isProviderBanned('outcome_amatic', ['amatic'])).toBe(true);
    expect(isProviderBanned('outcome_amatic', ['netent'])).toBe(false);
  });
});

describe('provider row rule (spec §2)', () => {
  const fav = game({ gameId: 'f1', tab: ['slotMachines', 'favorite'] });
  const plain = Array.from({ length: 8 }, (_, i) => game({ gameId: `g${i}` }));
  it('keeps only favourites for the favorite provider, leaves them out otherwise, max 6', () => {
    expect(rowGames('favorite', [fav, ...plain]).map((g) => g.gameId)).toEqual(['f1']);
    const row = rowGames('studio', [fav, ...plain]);
    expect(row).toHaveLength(6);
    expect(row.some((g) => g.gameId === 'f1')).toBe(false);
  });
  it('shows every game when nothing matches, and nothing for an empty list', () => {
    expect(rowGames('favorite', plain.slice(0, 2)).map((g) => g.gameId)).toEqual(['g0', 'g1']);
    expect(rowGames('studio', [fav]).map((g) => g.gameId)).toEqual(['f1']);
    expect(rowGames('studio', [])).toEqual([]);
  });
});

describe('sP query (spec §2)', () => {
  it('sets sP and keeps the other parameters', () => {
    expect(viewAllHref('slots', 'studio')).toBe('/slots/main?sP=studio');
    expect(viewAllHref(undefined, 'studio', '?ref=a&sP=old')).toBe('/slots/main?ref=a&sP=studio');
    expect(viewAllHref('casinolive', 'evolution', '?x=1')).toBe('/casinolive/main?x=1&sP=evolution');
    expect(withProvider('?sP=studio&category=new', null)).toBe('?category=new');
    expect(withProvider('', null)).toBe('');
    expect(viewAllHref('slots', 'a b&c')).toBe('/slots/main?sP=a+b%26c');
  });
  it('game links are # for guests', () => {
    const g = game({ gameId: 'desert-gold' });
    expect(gameHref(g, false)).toBe('#');
    expect(gameHref(g, true)).toBe('/slots/studio/desert-gold');
    expect(gameHref({ ...g, casinoType: 'casinolive', routeProvider: 'evolution' }, true)).toBe('/casinolive/evolution/desert-gold');
  });
});

describe('categories (spec §2)', () => {
  it('derives a category from the name', () => {
    expect(categoryOf('Classic Blackjack')).toBe('blackJack');
    expect(categoryOf('Speed Baccarat')).toBe('baccarat');
    expect(categoryOf('European Roulette')).toBe('roulette');
    expect(categoryOf("Casino Hold'em")).toBe('casinoHoldem');
    expect(categoryOf('Three Card Poker')).toBe('poker');
    expect(categoryOf('Dragon Tiger')).toBe('dragonTiger');
    expect(categoryOf('Super Sic Bo')).toBe('sikBo');
    expect(categoryOf('Live Lobby')).toBe('liveCasino');
    expect(categoryOf('Table Mania')).toBe('tableGames');
    expect(categoryOf('Dice')).toBe('dice');
    expect(categoryOf('Card Party')).toBe('card');
    expect(categoryOf('Desert Gold')).toBe('otherGames');
  });
  it('offers the categories present, in order, and filters by them', () => {
    const list = [
      game({ gameId: 'a', name: 'Desert Gold', tab: ['slotMachines', 'new', 'top'] }),
      game({ gameId: 'b', name: 'Roulette', tab: ['slotMachines'] }),
      game({ gameId: 'c', name: 'Crash', tab: ['slotMachines', 'crashGames'] }),
    ];
    expect(categoriesOf(list)).toEqual(['top', 'new', 'crashGames', 'roulette']);
    expect(filterGames(list, { category: 'roulette' }).map((g) => g.gameId)).toEqual(['b']);
    expect(filterGames(list, { category: 'all', query: 'gold' }).map((g) => g.gameId)).toEqual(['a']);
    expect(filterGames(list, {}).length).toBe(3);
    // A category every game has filters nothing: no chip.
    expect(categoriesOf([list[0]!])).toEqual([]);
    expect(categoriesOf(list.map((g) => ({ ...g, isNew: true })))).toEqual(['top', 'crashGames', 'roulette']);
  });
});

describe('similar games (spec §2, §9)', () => {
  it('picks up to 5 others of the same provider or tab, at random', () => {
    const me = game({ gameId: 'me', tab: ['slotMachines', 'crashGames'] });
    const pool = [
      me,
      ...Array.from({ length: 8 }, (_, i) => game({ gameId: `s${i}` })),
      game({ gameId: 'other-tab', provider: 'netent', tab: ['crashGames'] }),
      game({ gameId: 'unrelated', provider: 'netent', tab: ['slotMachines'] }),
      game({ gameId: 's1' }),
    ];
    const picked = similarGames(me, pool, 5, () => 0.5);
    expect(picked).toHaveLength(5);
    expect(picked.some((g) => g.gameId === 'me' || g.gameId === 'unrelated')).toBe(false);
    expect(new Set(picked.map((g) => g.gameId)).size).toBe(5);
    const all = similarGames(me, pool, 50, () => 0);
    expect(all.map((g) => g.gameId).sort()).toEqual([...Array.from({ length: 8 }, (_, i) => `s${i}`), 'other-tab'].sort());
    // Different random draws give different picks.
    expect(similarGames(me, pool, 5, () => 0).map((g) => g.gameId)).not.toEqual(similarGames(me, pool, 5, () => 0.99).map((g) => g.gameId));
  });
});

describe('grid windowing', () => {
  it('fits 3 columns on a phone and more on wider screens', () => {
    expect(gridLayout(358).columns).toBe(3);
    expect(gridLayout(728).columns).toBe(6);
    const l = gridLayout(358, { gap: 10, aspect: 1, caption: 34 });
    expect(l.tileWidth * 3 + 20).toBeCloseTo(358);
    expect(l.rowHeight).toBe(l.tileHeight + 10);
  });
  it('renders only the rows near the viewport', () => {
    const base = { count: 5000, columns: 3, rowHeight: 160, viewportHeight: 800, overscan: 2 };
    expect(gridWindow({ ...base, top: 200 })).toEqual({ start: 0, end: 3 * (Math.ceil(600 / 160) + 2), rows: 1667, totalHeight: 1667 * 160 });
    const w = gridWindow({ ...base, top: -16000 });
    expect(w.start).toBe((100 - 2) * 3);
    expect(w.end).toBe((Math.ceil(16800 / 160) + 2) * 3);
    expect(gridWindow({ ...base, top: -1667 * 160 - 1000 }).end - gridWindow({ ...base, top: -1667 * 160 - 1000 }).start).toBe(0);
    expect(gridWindow({ ...base, top: -1667 * 160 + 100 }).end).toBe(5000);
    expect(gridWindow({ ...base, count: 0, top: 0 })).toEqual({ start: 0, end: 0, rows: 0, totalHeight: 0 });
  });
});
