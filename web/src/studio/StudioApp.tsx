import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../app/errors';
import { createApi, SESSION_EXPIRED, StudioError } from './api';
import { StudioContext, type StudioContextValue, type Toast } from './context';
import { formatMoney, formatShort } from './money';
import { play, setSoundEnabled } from './sound';
import type { GameKind, StudioSession } from './types';
import { Ico } from './ui/icons';
import { Sheet } from './ui/Sheet';
import { FairnessPanel } from './panels/Fairness';
import { HistoryPanel } from './panels/History';
import { RulesPanel } from './panels/Rules';
import { DiceGame } from './games/Dice';
import { RouletteGame } from './games/Roulette';
import { CrashGame } from './games/Crash';
import { SlotGame } from './slots/SlotGame';
import css from './studio.module.css';

type Panel = 'rules' | 'history' | 'fair' | null;

function themeOf(session: StudioSession): string {
  return session.kind === 'slot' ? session.gameId : session.kind;
}

export function StudioApp({ token, lang }: { token: string; lang: string }) {
  const { t } = useTranslation('studio');
  const [expired, setExpired] = useState(!token);
  const api = useMemo(() => createApi(token, () => setExpired(true)), [token]);
  const [session, setSession] = useState<StudioSession | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [balance, setBalanceState] = useState(0);
  const [sound, setSound] = useState(false);
  const [panel, setPanel] = useState<Panel>(null);
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [roundsVersion, setRoundsVersion] = useState(0);
  const toastId = useRef(0);

  useEffect(() => {
    if (!token) return;
    let live = true;
    api.session().then(
      (s) => {
        if (!live) return;
        setSession(s);
        setBalanceState(s.balance);
        document.title = `${s.name} · Carthage Studio`;
      },
      (e: unknown) => {
        if (!live) return;
        if (e instanceof StudioError && e.code === SESSION_EXPIRED) setExpired(true);
        else setLoadError(messageOf(e));
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, token]);

  const messageOf = useCallback(
    (e: unknown) => {
      const code = e instanceof StudioError ? e.code : -1;
      const { key, params } = errorText({ code, data: e instanceof StudioError ? e.data : undefined });
      return t(key, params ?? {});
    },
    [t],
  );

  const toast = useCallback((text: string, tone: Toast['tone'] = 'info') => {
    toastId.current += 1;
    const id = toastId.current;
    setToasts((list) => [...list.slice(-2), { id, text, tone }]);
    window.setTimeout(() => setToasts((list) => list.filter((x) => x.id !== id)), 3500);
  }, []);

  const value = useMemo<StudioContextValue | null>(() => {
    if (!session) return null;
    const money = (minor: number, bare = false) =>
      bare ? formatShort(minor, session.exponent, lang) : formatMoney(minor, session.exponent, session.currency, lang);
    return {
      api,
      session,
      balance,
      lang,
      settle: (b: number) => {
        setBalanceState(b);
        setRoundsVersion((v) => v + 1);
        try {
          window.parent.postMessage({ type: 'carthage:balance', balance: b, currency: session.currency }, location.origin);
        } catch {
          /* not framed by us */
        }
      },
      setBalance: setBalanceState,
      money,
      short: (minor: number) => formatShort(minor, session.exponent, lang),
      toast,
      fail: (e: unknown) => {
        if (e instanceof StudioError && e.code === SESSION_EXPIRED) return;
        toast(messageOf(e), 'error');
      },
      roundsVersion,
      expire: () => setExpired(true),
    };
  }, [api, session, balance, lang, toast, messageOf, roundsVersion]);

  if (expired) {
    return (
      <div className={css.fullState} data-testid="studio-expired" role="alert">
        <div className={css.stateIcon} aria-hidden="true">
          <Ico name="hourglass" size={40} />
        </div>
        <h1>{t('expired.title')}</h1>
        <p>{t('expired.text')}</p>
        <button type="button" className={css.primary} onClick={reopen}>
          {t('expired.reopen')}
        </button>
      </div>
    );
  }
  if (loadError) {
    return (
      <div className={css.fullState} role="alert">
        <h1>{t('loadError')}</h1>
        <p>{loadError}</p>
        <button type="button" className={css.primary} onClick={() => location.reload()}>
          {t('retry')}
        </button>
      </div>
    );
  }
  if (!value || !session) {
    return (
      <div className={css.fullState} role="status">
        <span className={css.loader} aria-hidden="true" />
        <span className={css.srOnly}>{t('loading')}</span>
      </div>
    );
  }

  const toggleSound = () => {
    const on = !sound;
    setSoundEnabled(on);
    setSound(on);
    if (on) play('click');
  };

  return (
    <StudioContext.Provider value={value}>
      <div className={css.app} data-theme={themeOf(session)} data-kind={session.kind}>
        <header className={css.top}>
          <div className={css.balance} data-testid="studio-balance" aria-label={t('balance')}>
            <span className={css.balanceLabel}>{t('balance')}</span>
            <bdi className={css.balanceValue}>{value.money(balance)}</bdi>
          </div>
          <nav className={css.tools} aria-label={t('tools')}>
            <ToolButton label={sound ? t('soundOff') : t('soundOn')} pressed={sound} onClick={toggleSound} testId="studio-sound">
              <Ico name={sound ? 'soundOn' : 'soundOff'} size={19} />
            </ToolButton>
            <ToolButton label={t('rules.title')} onClick={() => setPanel('rules')} testId="studio-rules">
              <Ico name="info" size={19} />
            </ToolButton>
            <ToolButton label={t('history.title')} onClick={() => setPanel('history')} testId="studio-history">
              <Ico name="history" size={19} />
            </ToolButton>
            <ToolButton label={t('fair.title')} onClick={() => setPanel('fair')} testId="studio-fair">
              <Ico name="shield" size={19} />
            </ToolButton>
          </nav>
        </header>
        <main className={css.stage}>
          <GameFor kind={session.kind} />
        </main>
        <div className={css.toasts} aria-live="polite">
          {toasts.map((x) => (
            <div key={x.id} className={`${css.toast} ${css[`toast_${x.tone}`] ?? ''}`} data-testid="studio-toast">
              {x.text}
            </div>
          ))}
        </div>
        <Sheet open={panel === 'rules'} title={t('rules.title')} onClose={() => setPanel(null)}>
          <RulesPanel />
        </Sheet>
        <Sheet open={panel === 'history'} title={t('history.title')} onClose={() => setPanel(null)}>
          <HistoryPanel />
        </Sheet>
        <Sheet open={panel === 'fair'} title={t('fair.title')} onClose={() => setPanel(null)}>
          <FairnessPanel />
        </Sheet>
      </div>
    </StudioContext.Provider>
  );
}

/** Asks the framing game page to open a fresh session; a page opened on its own goes back to the lobby. */
function reopen() {
  if (window.parent !== window) window.parent.postMessage({ type: 'carthage:reopen' }, location.origin);
  else location.assign('/slots/lobby');
}

function GameFor({ kind }: { kind: GameKind }) {
  switch (kind) {
    case 'slot':
      return <SlotGame />;
    case 'roulette':
      return <RouletteGame />;
    case 'dice':
      return <DiceGame />;
    case 'crash':
      return <CrashGame />;
    default:
      return null;
  }
}

function ToolButton({ label, onClick, children, pressed, testId }: { label: string; onClick: () => void; children: ReactNode; pressed?: boolean; testId: string }) {
  return (
    <button type="button" className={css.tool} aria-label={label} title={label} onClick={onClick} data-testid={testId}
      {...(pressed !== undefined ? { 'aria-pressed': pressed } : {})}>
      {children}
    </button>
  );
}
