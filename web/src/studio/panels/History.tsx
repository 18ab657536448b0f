import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudio } from '../context';
import { formatMultiplier } from '../money';
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
        const won = r.win > 0;
        return (
          <li key={String(r.roundId)} className={css.item}>
            <span className={css.itemMain}>
              {session.kind === 'crash' ? (
                <span>
                  {r.cashedOutAt != null ? t('history.cashedOutAt', { m: formatMultiplier(r.cashedOutAt, lang) }) : t('history.notCashed')} ·{' '}
                  {t('history.crashedAt', { m: formatMultiplier(r.crashPoint ?? 100, lang) })}
                </span>
              ) : (
                <OutcomeSummary round={r} />
              )}
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
