import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { LANGUAGES, isRtl, languageOf } from '../../../app/i18n';
import { LazyImage } from '../../../components/LazyImage';
import { WELCOME_HREF, formatOffer, welcomeOffer } from '../../../components/welcomeOffer';
import css from './Home.module.css';

/** The welcome slide: the server links it to /promotions. */
const WELCOME_URL = '/promotions';

const ALT: Record<string, string> = {
  [WELCOME_URL]: 'slides.welcome',
  '/promotions/cashback-percent': 'slides.cashback',
  '/slots/lobby': 'slides.slots',
};

export function Slider() {
  const { t, i18n } = useTranslation();
  const lang = languageOf(i18n.language) ?? LANGUAGES[0];
  const { data: allSlides = [], isFetching: slidesFetching } = api.useSlidesQuery(lang.slides);
  const settings = api.useSettingsQuery();
  // The welcome slide states the offer the settings grant, and is left out when there is none.
  const offer = welcomeOffer(settings.data);
  const slides = allSlides.filter((s) => s.url !== WELCOME_URL || offer);
  const isFetching = slidesFetching || settings.isLoading;
  const [current, setCurrent] = useState(0);
  const track = useRef<HTMLDivElement>(null);

  useEffect(() => setCurrent(0), [lang.code]);
  useEffect(() => {
    if (slides.length < 2) return;
    const timer = setInterval(() => setCurrent((c) => (c + 1) % slides.length), 5000);
    return () => clearInterval(timer);
  }, [slides.length]);
  useEffect(() => {
    const el = track.current?.children[current] as HTMLElement | undefined;
    if (el && track.current) track.current.scrollTo({ left: el.offsetLeft - track.current.offsetLeft, behavior: 'smooth' });
  }, [current]);

  if (!isFetching && slides.length === 0) return null;
  return (
    <section className={css.slider} aria-roledescription="carousel" aria-label={t('highlights')}>
      <div className={css.track} ref={track} dir="ltr">
        {slides.length === 0 ? (
          <div className={`${css.slide} ${css.slideImg} ${css.skeleton}`} aria-hidden="true" />
        ) : (
          slides.map((s, i) => {
            const welcome = s.url === WELCOME_URL && offer;
            return (
              <Link
                key={s.id}
                to={welcome ? WELCOME_HREF : s.url}
                className={css.slide}
                aria-hidden={i !== current}
                tabIndex={i === current ? 0 : -1}
                data-testid={welcome ? 'welcome-slide' : undefined}
                // The artwork's text runs from the page's start side: so does the caption.
                dir={welcome ? (isRtl(lang.code) ? 'rtl' : 'ltr') : undefined}
              >
                <LazyImage src={s.url_image} alt={t(ALT[s.url] ?? 'slides.default')} className={css.slideImg} eager={i === 0} width={720} height={300} />
                {welcome && (
                  // Over the artwork, where its subtitle sits: the amount granted, in its currency.
                  <span className={css.slideCaption} data-testid="welcome-caption">
                    {t('slides.welcomeOffer', { amount: `\u2066${formatOffer(offer, lang.code)}\u2069` })}
                  </span>
                )}
              </Link>
            );
          })
        )}
      </div>
      {slides.length > 1 && (
        // In the track's order (left to right in every language).
        <div className={css.dots} dir="ltr">
          {slides.map((s, i) => (
            <button
              key={s.id}
              type="button"
              className={css.dot}
              aria-label={t('slideN', { n: i + 1 })}
              aria-current={i === current}
              onClick={() => setCurrent(i)}
            />
          ))}
        </div>
      )}
    </section>
  );
}
