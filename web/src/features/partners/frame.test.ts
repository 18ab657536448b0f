import { describe, expect, it } from 'vitest';
import {
  DIGITAIN_GUEST_URL,
  digitainFramePath,
  digitainFrameSrc,
  frameLanguage,
  FRAME_LANGUAGES,
  gr8DeepLink,
  gr8FrameSrc,
  isSafeFrameUrl,
} from './frame';

describe('sports frame language (spec §9)', () => {
  it('keeps the app languages en, fr and ar', () => {
    expect(frameLanguage('en')).toBe('en');
    expect(frameLanguage('fr')).toBe('fr');
    expect(frameLanguage('ar')).toBe('ar');
    expect(frameLanguage('fr-fr')).toBe('fr');
    expect(frameLanguage('ar-ar')).toBe('ar');
    expect(frameLanguage('en-US')).toBe('en');
  });
  it('covers en, ru, he, fr, ar, es, pt; anything else is English', () => {
    expect([...FRAME_LANGUAGES]).toEqual(['en', 'ru', 'he', 'fr', 'ar', 'es', 'pt']);
    expect(frameLanguage('ru-ru')).toBe('ru');
    expect(frameLanguage('PT')).toBe('pt');
    expect(frameLanguage('kk-KZ')).toBe('en');
    expect(frameLanguage('de')).toBe('en');
    expect(frameLanguage('')).toBe('en');
    expect(frameLanguage(undefined)).toBe('en');
  });
});

describe('Digitain frame routes', () => {
  it('maps every category to the frame path of the spec', () => {
    expect(digitainFramePath(undefined)).toBe('/');
    expect(digitainFramePath('home')).toBe('/');
    expect(digitainFramePath('live')).toBe('/Live/1');
    expect(digitainFramePath('line')).toBe('/SportEvent');
    expect(digitainFramePath('favorite')).toBe('/Favorite');
    expect(digitainFramePath('results')).toBe('/Results');
    expect(digitainFramePath('calendar')).toBe('/Calendar');
    expect(digitainFramePath('search')).toBe('/Search');
    expect(digitainFramePath('mybets')).toBe('/?popup=MyBets');
    expect(digitainFramePath('events')).toBe('/SportEvents');
  });
  it('opens one event by its id', () => {
    expect(digitainFramePath('event', '123')).toBe('/events/123');
    expect(digitainFramePath('event', 'a b/c')).toBe('/events/a%20b%2Fc');
  });
  it('has no page for an unknown category, an event without id or an id on a list', () => {
    expect(digitainFramePath('casino')).toBeNull();
    expect(digitainFramePath('toString')).toBeNull();
    expect(digitainFramePath('event')).toBeNull();
    expect(digitainFramePath('live', '5')).toBeNull();
  });
  it('builds {url}/{lang}{path}?token=, joining an existing query with &', () => {
    expect(digitainFrameSrc({ url: 'https://sport.example/frame', lang: 'fr', path: '/Live/1', token: 't1' })).toBe(
      'https://sport.example/frame/fr/Live/1?token=t1',
    );
    expect(digitainFrameSrc({ url: 'https://sport.example/', lang: 'en', path: '/?popup=MyBets', token: 't1' })).toBe(
      'https://sport.example/en/?popup=MyBets&token=t1',
    );
    expect(digitainFrameSrc({ url: DIGITAIN_GUEST_URL, lang: 'ar', path: '/', token: 'anonymous' })).toBe(
      '/partners/digitain/ar/?token=anonymous',
    );
    expect(digitainFrameSrc({ url: 'https://s.example', lang: 'en', path: '/Results', token: 'a+b/=' })).toBe(
      'https://s.example/en/Results?token=a%2Bb%2F%3D',
    );
  });
});

describe('GR8 deep links', () => {
  it('maps the categories (spec "Sports deep links")', () => {
    expect(gr8DeepLink(undefined)).toBe('');
    expect(gr8DeepLink('live')).toBe('all-live');
    expect(gr8DeepLink('mybets')).toBe('my-bets/open');
    expect(gr8DeepLink('uefa')).toBe('football/uefa-champions-league/play-offs');
    expect(gr8DeepLink('nope')).toBeNull();
    expect(gr8DeepLink('constructor')).toBeNull();
  });
  it('puts the deep link after the language segment and keeps the query', () => {
    expect(gr8FrameSrc('https://gr8.example/en?jwt=abc.def', 'en', 'all-live')).toBe('https://gr8.example/en/all-live?jwt=abc.def');
    expect(gr8FrameSrc('https://gr8.example/en/?jwt=x', 'en', 'my-bets/open')).toBe('https://gr8.example/en/my-bets/open?jwt=x');
    expect(gr8FrameSrc('https://gr8.example/sport/ar/?jwt=x&b=1', 'ar', 'all-live')).toBe(
      'https://gr8.example/sport/ar/all-live?jwt=x&b=1',
    );
    // A path after the language stays after the deep link.
    expect(gr8FrameSrc('https://gr8.example/fr/home/?jwt=x', 'fr', 'all-live')).toBe('https://gr8.example/fr/all-live/home/?jwt=x');
  });
  it('finds another frame language when the link is not in the requested one, else appends', () => {
    expect(gr8FrameSrc('https://gr8.example/en?jwt=x', 'fr', 'all-live')).toBe('https://gr8.example/en/all-live?jwt=x');
    expect(gr8FrameSrc('https://gr8.example/lobby?jwt=x', 'en', 'all-live')).toBe('https://gr8.example/lobby/all-live?jwt=x');
    expect(gr8FrameSrc('https://gr8.example?jwt=x', 'en', 'all-live')).toBe('https://gr8.example/all-live?jwt=x');
  });
  it('leaves the link as it is without a deep link; refuses what is not http(s)', () => {
    expect(gr8FrameSrc('https://gr8.example/en?jwt=x', 'en', '')).toBe('https://gr8.example/en?jwt=x');
    expect(gr8FrameSrc('/partners/gr8/en?demo=1', 'en', 'all-live', 'https://app.example/betting/gr')).toBe(
      'https://app.example/partners/gr8/en/all-live?demo=1',
    );
    expect(gr8FrameSrc('javascript:alert(1)', 'en', 'all-live')).toBeNull();
    expect(gr8FrameSrc('http://[', 'en', 'all-live')).toBeNull();
  });
  it('checks a frame address before it is framed', () => {
    expect(isSafeFrameUrl('https://x.example/a')).toBe(true);
    expect(isSafeFrameUrl('/partners/digitain')).toBe(true);
    expect(isSafeFrameUrl('javascript:alert(1)')).toBe(false);
    expect(isSafeFrameUrl('data:text/html,hi')).toBe(false);
    expect(isSafeFrameUrl('')).toBe(false);
    expect(isSafeFrameUrl(42)).toBe(false);
  });
});
