import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudio } from '../context';
import { formatMinor, formatShort } from '../money';
import { play } from '../sound';
import { BetControl, useBetLevels } from '../ui/BetControl';
import { Ico } from '../ui/icons';
import { chanceBp, clampTarget, diceReturn, multiplierBp, targetBounds } from './diceMath';
import css from './dice.module.css';
import g from './games.module.css';

interface Rolled {
  roll: number;
  win: boolean;
  amount: number;
  key: number;
}


export function DiceGame() {
  const { t } = useTranslation('studio');
  const { api, money, settle, fail, lang, balance } = useStudio();
  const levels = useBetLevels();
  const [bet, setBet] = useState(levels[Math.min(2, levels.length - 1)] ?? 100);
  const [target, setTarget] = useState(5000);
  const [over, setOver] = useState(true);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<number | null>(null);
  const [last, setLast] = useState<Rolled | null>(null);
  const [recent, setRecent] = useState<Rolled[]>([]);
  const anim = useRef(0);

  useEffect(() => () => cancelAnimationFrame(anim.current), []);

  const mult = multiplierBp(target, over);
  const chance = chanceBp(target, over);
  const payout = diceReturn(bet, target, over);
  const [minTarget, maxTarget] = targetBounds(over);

  const roll = async () => {
    if (busy) return;
    setBusy(true);
    play('spin');
    const from = shown ?? 5000;
    const started = performance.now();
    // Spin the number while the request runs.
    const spin = () => {
      setShown(Math.floor(Math.random() * 10001));
      anim.current = requestAnimationFrame(spin);
    };
    anim.current = requestAnimationFrame(spin);
    try {
      const r = await api.diceRoll(bet, target, over);
      const res = r.result!;
      const wait = Math.max(0, 450 - (performance.now() - started));
      await new Promise((ok) => setTimeout(ok, wait));
      cancelAnimationFrame(anim.current);
      // Ease the marker from where it was to the roll.
      const t0 = performance.now();
      const ease = (now: number) => {
        const p = Math.min(1, (now - t0) / 380);
        const e = 1 - (1 - p) ** 3;
        setShown(Math.round(from + (res.roll - from) * e));
        if (p < 1) anim.current = requestAnimationFrame(ease);
        else {
          setShown(res.roll);
          const rolled = { roll: res.roll, win: res.win, amount: r.win, key: Date.now() };
          setLast(rolled);
          setRecent((list) => [rolled, ...list].slice(0, 12));
          settle(r.balance);
          play(res.win ? 'win' : 'lose');
          setBusy(false);
        }
      };
      anim.current = requestAnimationFrame(ease);
    } catch (e) {
      cancelAnimationFrame(anim.current);
      setShown(last?.roll ?? null);
      fail(e);
      setBusy(false);
    }
  };

  const pct = (v: number) => `${v / 100}%`;
  const display = shown ?? last?.roll ?? null;
  const status = busy ? 'rolling' : last ? (last.win ? 'win' : 'lose') : 'idle';

  return (
    <div className={g.game}>
      <div className={g.recent} aria-label={t('recentRolls')}>
        {recent.map((r) => (
          <span key={r.key} className={`${g.recentChip} ${r.win ? g.good : g.bad}`}>
            {formatMinor(r.roll, 2, lang)}
          </span>
        ))}
        {recent.length === 0 && <span className={g.recentEmpty}>{t('dice.noRolls')}</span>}
      </div>

      <div className={css.board} data-status={status}>
        <div className={css.result} data-testid="dice-result" aria-live="polite">
          {display === null ? (
            <svg className={css.die} viewBox="0 0 100 100" aria-hidden="true">
              <rect x="8" y="8" width="84" height="84" rx="20" fill="url(#die-face)" stroke="#c9bfff" strokeWidth="3" />
              {[[30, 30], [70, 30], [50, 50], [30, 70], [70, 70]].map(([x, y]) => (
                <circle key={`${x}${y}`} cx={x} cy={y} r="8" fill="#2a1f66" />
              ))}
              <defs>
                <linearGradient id="die-face" x1="0" y1="0" x2="1" y2="1">
                  <stop offset="0" stopColor="#ffffff" />
                  <stop offset="1" stopColor="#cfc4ff" />
                </linearGradient>
              </defs>
            </svg>
          ) : (
            <span className={css.resultValue} data-testid="dice-result-value">{formatMinor(display, 2, lang)}</span>
          )}
          <span className={css.resultLabel}>
            {status === 'win' ? t('dice.won', { amount: money(last?.amount ?? 0) }) : status === 'lose' ? t('dice.lost') : t('dice.rollLabel')}
          </span>
        </div>

        <div className={css.trackWrap} dir="ltr">
          <div className={css.track} style={{ '--target': pct(target) } as CSSProperties} data-over={over}>
            <div className={css.zoneLose} />
            <div className={css.zoneWin} />
            {display !== null && (
              <div className={css.marker} style={{ insetInlineStart: pct(display) }} data-win={last?.win ?? false}>
                <span data-testid="dice-marker">{formatMinor(display, 2, lang)}</span>
              </div>
            )}
          </div>
          <input
            className={css.slider}
            type="range"
            min={minTarget}
            max={maxTarget}
            step={1}
            value={target}
            disabled={busy}
            onChange={(e) => setTarget(Number(e.target.value))}
            aria-label={t('dice.target')}
            aria-valuetext={formatMinor(target, 2, lang)}
            data-testid="dice-target"
          />
          <div className={css.scale} aria-hidden="true">
            {[0, 25, 50, 75, 100].map((n) => (
              <span key={n}>{n}</span>
            ))}
          </div>
        </div>
      </div>

      <div className={css.mode} role="radiogroup" aria-label={t('dice.mode')} dir="ltr">
        <button type="button" role="radio" aria-checked={!over} className={css.modeBtn} disabled={busy} onClick={() => { setOver(false); setTarget(clampTarget(target, false)); }} data-testid="dice-under">
          {t('dice.under')}
        </button>
        <button type="button" className={css.swap} disabled={busy} onClick={() => { setOver(!over); setTarget(clampTarget(10000 - target, !over)); }} aria-label={t('dice.swap')}>
          <Ico name="swap" size={18} />
        </button>
        <button type="button" role="radio" aria-checked={over} className={css.modeBtn} disabled={busy} onClick={() => { setOver(true); setTarget(clampTarget(target, true)); }} data-testid="dice-over">
          {t('dice.over')}
        </button>
      </div>

      <div className={css.stats}>
        <Stat label={over ? t('dice.rollOver') : t('dice.rollUnder')} value={formatMinor(target, 2, lang)} testId="dice-target-value" />
        <Stat label={t('dice.chance')} value={`${formatMinor(chance, 2, lang)}%`} testId="dice-chance" />
        <Stat label={t('dice.multiplier')} value={`${formatShort(mult, 4, lang)}×`} testId="dice-multiplier" />
      </div>

      <div className={g.controls}>
        <div className={g.payoutLine}>
          <span>{t('dice.payoutOnWin')}</span>
          <bdi>{money(payout)}</bdi>
        </div>
        <div className={g.controlRow}>
          <BetControl value={bet} onChange={setBet} disabled={busy} />
          <button type="button" className={`${g.action} ${busy ? g.actionBusy : ''}`} onClick={roll} disabled={busy || bet > balance} data-testid="dice-roll">
            {busy ? t('dice.rolling') : t('dice.roll')}
          </button>
        </div>
      </div>
    </div>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className={css.stat}>
      <span className={css.statLabel}>{label}</span>
      <bdi className={css.statValue} dir="ltr" data-testid={testId}>
        {value}
      </bdi>
    </div>
  );
}

