import { useTranslation } from 'react-i18next';
import { useStudio } from '../context';
import { formatMinor, isolate } from '../money';
import { SymbolArt } from '../slots/symbols';
import { useSlotInfo } from '../slots/useSlotInfo';
import { PAYS, type RouletteKind } from '../games/rouletteModel';
import css from './panels.module.css';

export function RulesPanel() {
  const { session } = useStudio();
  switch (session.kind) {
    case 'slot':
      return <SlotRules />;
    case 'roulette':
      return <RouletteRules />;
    case 'dice':
      return <TextRules keys={['dice.rules1', 'dice.rules2', 'dice.rules3']} rtp="99.00" />;
    case 'crash':
      return <TextRules keys={['crash.rules1', 'crash.rules2', 'crash.rules3', 'crash.rules4']} rtp="99.00" />;
    default:
      return null;
  }
}

function Limits() {
  const { t } = useTranslation('studio');
  const { session, money } = useStudio();
  return (
    <section className={css.section}>
      <h3>{t('rules.limits')}</h3>
      <div className={css.kv}>
        <span className={css.k}>{t('rules.minMax')}</span>
        <span className={css.v}>
          <bdi>{money(session.minBet)}</bdi> – <bdi>{money(session.maxBet)}</bdi>
        </span>
      </div>
      <p className={css.text} style={{ fontSize: 12, color: 'var(--c-muted)' }}>
        {t('rules.malfunction')}
      </p>
    </section>
  );
}

function TextRules({ keys, rtp }: { keys: string[]; rtp: string }) {
  const { t } = useTranslation('studio');
  return (
    <div data-testid="rules-panel">
      <section className={css.section}>
        <h3>{t('rules.howToPlay')}</h3>
        {keys.map((k) => (
          <p key={k} className={css.text}>
            {t(k)}
          </p>
        ))}
      </section>
      <section className={css.section}>
        <h3>{t('rules.rtp')}</h3>
        <p className={css.text}>{t('rules.rtpText', { rtp })}</p>
      </section>
      <Limits />
    </div>
  );
}

const ROULETTE_ROWS: RouletteKind[] = ['straight', 'split', 'street', 'trio', 'corner', 'firstFour', 'sixLine', 'dozen', 'column', 'red', 'odd', 'low'];

function RouletteRules() {
  const { t } = useTranslation('studio');
  return (
    <div data-testid="rules-panel">
      <section className={css.section}>
        <h3>{t('rules.howToPlay')}</h3>
        <p className={css.text}>{t('roulette.rules1')}</p>
        <p className={css.text}>{t('roulette.rules2')}</p>
      </section>
      <section className={css.section}>
        <h3>{t('rules.payouts')}</h3>
        <table className={css.table}>
          <thead>
            <tr>
              <th>{t('rules.bet')}</th>
              <th>{t('rules.covers')}</th>
              <th>{t('rules.pays')}</th>
            </tr>
          </thead>
          <tbody>
            {ROULETTE_ROWS.map((k) => (
              <tr key={k}>
                <td>{t(`roulette.kindsLong.${k}`)}</td>
                <td>{t(`roulette.covers.${k}`)}</td>
                <td>
                  <bdi>{PAYS[k]}:1</bdi>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className={css.section}>
        <h3>{t('rules.rtp')}</h3>
        <p className={css.text}>{t('rules.rtpText', { rtp: '97.30' })}</p>
      </section>
      <Limits />
    </div>
  );
}

function SlotRules() {
  const { t } = useTranslation('studio');
  const { api, session, lang } = useStudio();
  const info = useSlotInfo(api);
  if (!info) return <div className={css.empty}>…</div>;
  const bySymbol = new Map<number, { count: number; pay: number }[]>();
  for (const p of info.paytable) bySymbol.set(p.symbol, [...(bySymbol.get(p.symbol) ?? []), p]);
  const order = [...bySymbol.keys()].sort((a, b) => Math.max(...bySymbol.get(b)!.map((p) => p.pay)) - Math.max(...bySymbol.get(a)!.map((p) => p.pay)));
  const wild = info.symbols[info.wild];
  const scatter = info.symbols[info.scatter];
  const mults = info.feature.multipliers.map((m) => isolate(`×${m.value}`)).join(', ');
  return (
    <div data-testid="rules-panel">
      <section className={css.section}>
        <h3>{t('rules.howToPlay')}</h3>
        <p className={css.text}>{t('slots.rules1', { lines: info.lines.length, reels: info.reels, rows: info.rows })}</p>
        <p className={css.text}>{t('slots.rules2')}</p>
      </section>
      <section className={css.section}>
        <h3>{t('slots.special')}</h3>
        {wild && (
          <div className={css.payCard}>
            <SymbolArt theme={session.gameId} symbol={wild} />
            <span className={css.text}>{t('slots.wildText', { name: t(`slots.sym.${wild.id}`, { defaultValue: wild.name }) })}</span>
          </div>
        )}
        {scatter && (
          <div className={css.payCard}>
            <SymbolArt theme={session.gameId} symbol={scatter} />
            <span className={css.payList}>
              <span className={css.text}>
                {t('slots.scatterText', { name: t(`slots.sym.${scatter.id}`, { defaultValue: scatter.name }), count: info.feature.triggerCount, spins: info.feature.spins })}
              </span>
              {info.scatterPays.map((p) => (
                <span key={p.count}>
                  <bdi dir="ltr">{p.count}×</bdi> — <b>{t('slots.totalBetTimes', { x: p.pay })}</b>
                </span>
              ))}
            </span>
          </div>
        )}
        <div className={css.kv}>
          <span className={css.v}>{t(`slots.featureName.${info.id}`, { defaultValue: info.feature.name })}</span>
          <span className={css.text}>
            {t('slots.featureText', { spins: info.feature.spins, retrigger: info.feature.retrigger })}
            {info.feature.multipliers.length > 1 ? ` ${t('slots.multipliers', { list: mults })}` : ''}
            {info.feature.multipliers.length === 1 && (info.feature.multipliers[0]?.value ?? 1) > 1
              ? ` ${t('slots.allWinsTimes', { x: info.feature.multipliers[0]!.value })}`
              : ''}
            {info.feature.expandingWildReels.length > 0
              ? ` ${t('slots.expanding', { reels: new Intl.ListFormat(lang, { type: 'conjunction' }).format(info.feature.expandingWildReels.map((r) => String(r + 1))) })}`
              : ''}
          </span>
        </div>
      </section>
      <section className={css.section}>
        <h3>{t('slots.paytable')}</h3>
        <p className={css.text} style={{ fontSize: 12, color: 'var(--c-muted)' }}>
          {t('slots.paytableHint')}
        </p>
        <div className={css.payGrid}>
          {order.map((idx) => {
            const sym = info.symbols[idx];
            if (!sym) return null;
            return (
              <div key={idx} className={css.payCard}>
                <SymbolArt theme={session.gameId} symbol={sym} />
                <span className={css.payList}>
                  {bySymbol
                    .get(idx)!
                    .sort((a, b) => b.count - a.count)
                    .map((p) => (
                      <span key={p.count}>
                        <bdi dir="ltr">{p.count}×</bdi> <b>{p.pay}</b>
                      </span>
                    ))}
                </span>
              </div>
            );
          })}
        </div>
      </section>
      <section className={css.section}>
        <h3>{t('slots.lines', { n: info.lines.length })}</h3>
        <div className={css.lines}>
          {info.lines.map((rows, i) => (
            <div key={i} className={css.lineMini}>
              <svg viewBox="0 0 50 30" aria-hidden="true">
                {rows.map((_, reel) => [0, 1, 2].map((r) => (
                  <rect key={`${reel}-${r}`} x={reel * 10 + 1} y={r * 10 + 1} width="8" height="8" rx="1.5" fill={rows[reel] === r ? 'var(--t-accent, #f5b82e)' : 'rgba(255,255,255,0.1)'} />
                )))}
              </svg>
              <span>{i + 1}</span>
            </div>
          ))}
        </div>
      </section>
      <section className={css.section}>
        <h3>{t('rules.rtp')}</h3>
        <p className={css.text}>
          {t('rules.rtpText', { rtp: formatMinor(info.declaredRtpBp, 2, lang) })} {t('slots.volatility', { v: t(`slots.vol.${info.volatility}`, { defaultValue: info.volatility }) })}
        </p>
      </section>
      <Limits />
    </div>
  );
}
