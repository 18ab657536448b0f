import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudio } from '../context';
import { formatMultiplier, isolate } from '../money';
import type { HistoryRound } from '../types';
import { OutcomeSummary } from './Fairness';
import css from './panels.module.css';

export function HistoryPanel() {
  const { t } = useTranslation('studio');
  const { api, fail, money, session, lang, roundsVersion } = useStudio();
  const [rounds, setRounds] = useState<HistoryRound[] | null>(null);

  useEffect(() => {
    api.rounds(10).then(setRounds, (e: unknown) => {
      setRounds([]);
      fail(e);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, roundsVersion]);

  if (rounds === null) return <div className={css.empty}>…</div>;
  if (rounds.length === 0) return <div className={css.empty}>{t('history.empty')}</div>;
  const time = new Intl.DateTimeFormat(`${lang}-u-nu-latn`, { day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return (
    <ul className={css.list} data-testid="history-list">
      {rounds.map((r) => {
        if (session.kind === 'crash') return <CrashRoundItem key={String(r.roundId)} round={r} time={time.format(new Date(r.time))} />;
        const won = r.win > 0;
        return (
          <li key={String(r.roundId)} className={css.item}>
            <span className={css.itemMain}>
              <OutcomeSummary round={r} />
            </span>
            <span className={css.itemSub}>
              {time.format(new Date(r.time))} · {t('bet')} <bdi>{money(r.bet)}</bdi>
            </span>
            <span className={css.itemEnd}>
              <bdi className={won ? css.winAmt : css.lossAmt}>{won ? `+${money(r.win)}` : money(0)}</bdi>
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * A crash round of the player. The server sends the crash point only once the round is over
 * (docs/CRASH.md "Wiring"): until then the round is "in progress" — with the player's cash-out if
 * there was one — and shows no crash point and no result it does not have yet.
 */
export function CrashRoundItem({ round: r, time }: { round: HistoryRound; time: string }) {
  const { t } = useTranslation('studio');
  const { money, lang } = useStudio();
  const over = r.crashPoint != null;
  const refunded = r.status === 'refunded';
  const cashed = r.cashedOutAt != null;
  const m = (hundredths: number) => isolate(formatMultiplier(hundredths, lang));
  let main: string;
  if (refunded) main = t('history.refunded');
  else if (cashed) main = t('history.cashedOutAt', { m: m(r.cashedOutAt!) });
  else if (over) main = t('history.notCashed');
  else main = '';
  let end;
  if (refunded) end = <bdi className={css.lossAmt}>{money(r.bet)}</bdi>;
  else if (!over && !cashed) end = <span className={css.lossAmt}>—</span>;
  else end = <bdi className={r.win > 0 ? css.winAmt : css.lossAmt}>{r.win > 0 ? `+${money(r.win)}` : money(0)}</bdi>;
  return (
    <li className={css.item} data-testid="history-crash-round" data-over={over}>
      <span className={css.itemMain}>
        {(main || over) && (
          <span>
            {main}
            {!refunded && over && (
              <>
                {main && ' · '}
                {t('history.crashedAt', { m: m(r.crashPoint!) })}
              </>
            )}
          </span>
        )}
        {!refunded && !over && (
          <span className={css.live} data-testid="history-in-progress">
            {t('history.inProgress')}
          </span>
        )}
      </span>
      <span className={css.itemSub}>
        {time} · {t('bet')} <bdi>{money(r.bet)}</bdi>
      </span>
      <span className={css.itemEnd}>{end}</span>
    </li>
  );
}
