import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { LANGUAGES, languageOf } from '../../../app/i18n';
import { LazyImage } from '../../../components/LazyImage';
import css from './Home.module.css';

const ALT: Record<string, string> = {
  '/promotions': 'slides.welcome',
  '/promotions/cashback-percent': 'slides.cashback',
  '/slots/lobby': 'slides.slots',
};

export function Slider() {
  const { t, i18n } = useTranslation();
  const lang = languageOf(i18n.language) ?? LANGUAGES[0];
  const { data: slides = [], isFetching } = api.useSlidesQuery(lang.slides);
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
          slides.map((s, i) => (
            <Link key={s.id} to={s.url} className={css.slide} aria-hidden={i !== current} tabIndex={i === current ? 0 : -1}>
              <LazyImage src={s.url_image} alt={t(ALT[s.url] ?? 'slides.default')} className={css.slideImg} eager={i === 0} width={720} height={300} />
            </Link>
          ))
        )}
      </div>
      {slides.length > 1 && (
        <div className={css.dots}>
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
