import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudio } from '../context';
import { crashPoint, isHex64, previousHash } from '../fair';
import { formatMinor, formatMultiplier } from '../money';
import { useSlotInfo } from '../slots/useSlotInfo';
import type { CrashFairness, CrashRoundSummary, HistoryRound, RotateReply, Seed } from '../types';
import { Ico } from '../ui/icons';
import { verifyRound, type Verification } from '../verify';
import css from './panels.module.css';
import s from '../studio.module.css';

export function FairnessPanel() {
  const { session } = useStudio();
  return session.kind === 'crash' ? <CrashFairnessPanel /> : <SeedFairnessPanel />;
}

interface VerifyInput {
  serverSeed: string;
  serverSeedHash: string;
  clientSeed: string;
  nonce: string;
  outcome?: unknown;
}

function SeedFairnessPanel() {
  const { t } = useTranslation('studio');
  const { api, session, fail, toast, roundsVersion } = useStudio();
  const [seed, setSeed] = useState<Seed | null>(null);
  const [clientSeed, setClientSeed] = useState('');
  const [revealed, setRevealed] = useState<RotateReply['revealed'] | null>(null);
  const [rounds, setRounds] = useState<HistoryRound[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [input, setInput] = useState<VerifyInput>({ serverSeed: '', serverSeedHash: '', clientSeed: '', nonce: '' });
  const [result, setResult] = useState<Verification | null>(null);
  const [verifyError, setVerifyError] = useState<string | null>(null);
  const slotInfo = useSlotInfo(api, session.kind === 'slot');

  useEffect(() => {
    api.seeds().then((x) => {
      setSeed(x);
      setClientSeed(x.clientSeed);
    }, fail);
    api.rounds(10).then(setRounds, fail);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, roundsVersion]);

  const saveClientSeed = async () => {
    const v = clientSeed.trim();
    if (!/^[\x20-\x7e]{1,64}$/.test(v)) {
      toast(t('fair.clientSeedInvalid'), 'error');
      return;
    }
    setBusy(true);
    try {
      const next = await api.setClientSeed(v);
      setSeed(next);
      setClientSeed(next.clientSeed);
      toast(t('fair.clientSeedSaved'));
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  };

  const rotate = async () => {
    setBusy(true);
    try {
      const r = await api.rotate();
      setRevealed(r.revealed);
      setSeed(r.next);
      setClientSeed(r.next.clientSeed);
      setRounds(await api.rounds(10));
      // Prefill the verifier with the newest round of the revealed seed.
      setInput({ serverSeed: r.revealed.serverSeed, serverSeedHash: r.revealed.serverSeedHash, clientSeed: r.revealed.clientSeed, nonce: '' });
      setResult(null);
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  };

  const run = async (v: VerifyInput) => {
    setInput(v);
    setResult(null);
    setVerifyError(null);
    const nonce = Number.parseInt(v.nonce, 10);
    if (!isHex64(v.serverSeed) || !Number.isInteger(nonce) || nonce < 0 || v.clientSeed === '') {
      setVerifyError(t('fair.inputInvalid'));
      return;
    }
    try {
      const res = await verifyRound(session.kind, { serverSeed: v.serverSeed.trim(), clientSeed: v.clientSeed, nonce }, {
        serverSeedHash: v.serverSeedHash.trim() || null,
        outcome: v.outcome,
        slotInfo,
      });
      setResult(res);
    } catch (e) {
      setVerifyError(e instanceof Error ? e.message : String(e));
    }
  };

  const verifyRoundOf = (r: HistoryRound) =>
    run({
      serverSeed: r.serverSeed ?? '',
      serverSeedHash: r.serverSeedHash ?? '',
      clientSeed: r.clientSeed ?? '',
      nonce: String(r.nonce ?? ''),
      outcome: r.outcome,
    });

  return (
    <div data-testid="fair-panel">
      <p className={css.text} style={{ marginBlockEnd: 16 }}>
        {t('fair.intro')}
      </p>
      <section className={css.section}>
        <h3>{t('fair.active')}</h3>
        <div className={css.kv}>
          <span className={css.k}>{t('fair.serverSeedHash')}</span>
          <span className={`${css.v} ${css.mono}`} data-testid="fair-hash">
            {seed?.serverSeedHash ?? '…'}
          </span>
        </div>
        <label className={css.label}>
          {t('fair.clientSeed')}
          <div className={css.row}>
            <input className={css.input} value={clientSeed} maxLength={64} onChange={(e) => setClientSeed(e.target.value)} data-testid="fair-client-seed" />
            <button type="button" className={s.secondary} onClick={saveClientSeed} disabled={busy || !seed || clientSeed === seed.clientSeed}>
              {t('save')}
            </button>
          </div>
        </label>
        <div className={css.kv}>
          <span className={css.k}>{t('fair.nonce')}</span>
          <span className={css.v} data-testid="fair-nonce">
            {seed?.nonce ?? '…'}
          </span>
        </div>
        <button type="button" className={s.primary} onClick={rotate} disabled={busy} data-testid="fair-rotate">
          <Ico name="refresh" size={18} /> {t('fair.rotate')}
        </button>
        <p className={css.text} style={{ fontSize: 12, color: 'var(--c-muted)' }}>
          {t('fair.rotateHint')}
        </p>
      </section>

      {revealed && (
        <section className={css.section} data-testid="fair-revealed">
          <h3>{t('fair.revealed')}</h3>
          <div className={css.kv}>
            <span className={css.k}>{t('fair.serverSeed')}</span>
            <span className={`${css.v} ${css.mono}`}>{revealed.serverSeed}</span>
            <span className={css.k}>{t('fair.serverSeedHash')}</span>
            <span className={`${css.v} ${css.mono}`}>{revealed.serverSeedHash}</span>
            <span className={css.k}>{t('fair.clientSeed')}</span>
            <span className={`${css.v} ${css.mono}`}>{revealed.clientSeed}</span>
            <span className={css.k}>{t('fair.noncesUsed')}</span>
            <span className={css.v}>{revealed.nonces}</span>
          </div>
        </section>
      )}

      <section className={css.section}>
        <h3>{t('fair.yourRounds')}</h3>
        {rounds === null ? (
          <div className={css.empty}>…</div>
        ) : rounds.length === 0 ? (
          <div className={css.empty}>{t('history.empty')}</div>
        ) : (
          <ul className={css.list} data-testid="fair-rounds">
            {rounds.map((r) => (
              <li key={String(r.roundId)} className={css.item}>
                <span className={css.itemMain}>
                  <OutcomeSummary round={r} />
                </span>
                <span className={css.itemSub}>
                  {t('fair.nonce')} {r.nonce} · <span className={css.mono}>{(r.serverSeedHash ?? '').slice(0, 12)}…</span>
                </span>
                <span className={css.itemEnd}>
                  {r.serverSeed ? (
                    <button type="button" className={`${s.secondary} ${css.small}`} onClick={() => verifyRoundOf(r)} data-testid="fair-verify-round">
                      {t('fair.verify')}
                    </button>
                  ) : (
                    <span className={css.k}>{t('fair.notRevealed')}</span>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className={css.section}>
        <h3>{t('fair.verifier')}</h3>
        <p className={css.text} style={{ fontSize: 12, color: 'var(--c-muted)' }}>
          {t('fair.verifierHint')}
        </p>
        <label className={css.label}>
          {t('fair.serverSeed')}
          <input className={`${css.input} ${css.mono}`} value={input.serverSeed} onChange={(e) => setInput({ ...input, serverSeed: e.target.value, outcome: undefined })} data-testid="fair-in-server" />
        </label>
        <label className={css.label}>
          {t('fair.serverSeedHash')}
          <input className={`${css.input} ${css.mono}`} value={input.serverSeedHash} onChange={(e) => setInput({ ...input, serverSeedHash: e.target.value })} />
        </label>
        <div className={css.row}>
          <label className={css.label} style={{ flex: 2 }}>
            {t('fair.clientSeed')}
            <input className={css.input} value={input.clientSeed} onChange={(e) => setInput({ ...input, clientSeed: e.target.value, outcome: undefined })} />
          </label>
          <label className={css.label} style={{ flex: 1 }}>
            {t('fair.nonce')}
            <input className={css.input} inputMode="numeric" value={input.nonce} onChange={(e) => setInput({ ...input, nonce: e.target.value, outcome: undefined })} />
          </label>
        </div>
        <button type="button" className={s.secondary} onClick={() => void run(input)} data-testid="fair-verify">
          <Ico name="shield" size={16} /> {t('fair.verify')}
        </button>
        {verifyError && <div className={css.result} data-ok="false">{verifyError}</div>}
        {result && <VerificationView result={result} />}
      </section>
    </div>
  );
}

function VerificationView({ result }: { result: Verification }) {
  const { t } = useTranslation('studio');
  const compared = result.rows.some((r) => r.match !== null) || result.commitment !== null;
  return (
    <div className={css.result} data-ok={result.ok} data-testid="fair-result">
      <div className={css.verdict}>
        <Ico name={result.ok ? 'check' : 'cross'} size={20} />
        {result.ok ? (compared ? t('fair.match') : t('fair.computed')) : t('fair.mismatch')}
      </div>
      {result.commitment !== null && (
        <div className={css.checkLine}>
          <span>{t('fair.commitment')}</span>
          <b>{result.commitment ? '✓' : '✗'}</b>
        </div>
      )}
      {result.rows.map((r, i) => (
        <div key={i} className={css.checkLine}>
          <span>{t(`fair.check.${r.label}`)}</span>
          <bdi className={css.mono}>
            {r.computed}
            {r.expected !== null && (r.match ? ' ✓' : ` ≠ ${r.expected}`)}
          </bdi>
        </div>
      ))}
    </div>
  );
}

export function OutcomeSummary({ round }: { round: HistoryRound }) {
  const { t } = useTranslation('studio');
  const { session, lang } = useStudio();
  const o = (round.outcome ?? {}) as Record<string, unknown>;
  const inner = ((o.result ?? o.round ?? o) as Record<string, unknown>) ?? {};
  if (session.kind === 'dice' && typeof inner.roll === 'number') {
    return <span>{t('history.roll', { roll: formatMinor(inner.roll, 2, lang) })}</span>;
  }
  if (session.kind === 'roulette' && typeof inner.number === 'number') {
    const n = inner.number;
    const color = n === 0 ? 'green' : [1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36].includes(n) ? 'red' : 'black';
    return (
      <span className={css.ball} data-color={color}>
        {n}
      </span>
    );
  }
  if (session.kind === 'slot') {
    const feature = inner.feature as { spinsPlayed?: number } | null | undefined;
    return <span>{feature ? t('history.freeSpins', { n: feature.spinsPlayed ?? 0 }) : t('history.spin')}</span>;
  }
  return <span>#{String(round.roundId)}</span>;
}

function CrashFairnessPanel() {
  const { t } = useTranslation('studio');
  const { api, fail, lang } = useStudio();
  const [fair, setFair] = useState<CrashFairness | null>(null);
  const [rounds, setRounds] = useState<CrashRoundSummary[] | null>(null);
  const [hash, setHash] = useState('');
  const [res, setRes] = useState<{ point: number; prev: string; chain: boolean | null; expected: number | null } | null>(null);
  const [err, setErr] = useState<string | null>(null);

  useEffect(() => {
    // Right after a server start the chain may not be ready yet: retry quietly every 3 s.
    let live = true;
    let timer: number | undefined;
    const load = () => {
      api.crashFairness().then(
        (f) => live && setFair(f),
        () => {
          if (live) timer = window.setTimeout(load, 3000);
        },
      );
    };
    load();
    api.crashRounds(20).then(setRounds, fail);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api]);

  const check = async (h: string, r?: CrashRoundSummary) => {
    setHash(h);
    setRes(null);
    setErr(null);
    if (!fair) return;
    if (!isHex64(h)) {
      setErr(t('fair.inputInvalid'));
      return;
    }
    const point = await crashPoint(h.trim(), fair.salt);
    const prev = await previousHash(h.trim());
    // The round before it in the public list (ids are consecutive), else the terminating hash for round 1.
    // The list is newest first: the round before `r` is the next entry (ids need not be consecutive).
    const idx = r && rounds ? rounds.findIndex((x) => x.id === r.id) : -1;
    const older = idx >= 0 ? rounds?.[idx + 1] : rounds?.find((x) => x.hash.toLowerCase() === prev);
    let chain: boolean | null = null;
    if (older) chain = older.hash.toLowerCase() === prev;
    else if (prev === fair.terminatingHash.toLowerCase()) chain = true;
    setRes({ point, prev, chain, expected: r ? Math.round(r.crashPoint * 100) : null });
  };

  const ok = res ? (res.expected === null || res.expected === res.point) && res.chain !== false : false;

  return (
    <div data-testid="fair-panel">
      <p className={css.text} style={{ marginBlockEnd: 16 }}>
        {t('fair.crashIntro')}
      </p>
      <section className={css.section}>
        <h3>{t('fair.published')}</h3>
        <div className={css.kv}>
          <span className={css.k}>{t('fair.terminatingHash')}</span>
          <span className={`${css.v} ${css.mono}`}>{fair?.terminatingHash ?? '…'}</span>
          <span className={css.k}>{t('fair.salt')}</span>
          <span className={`${css.v} ${css.mono}`}>{fair?.salt ?? '…'}</span>
        </div>
      </section>
      <section className={css.section}>
        <h3>{t('fair.verifier')}</h3>
        <label className={css.label}>
          {t('fair.roundHash')}
          <input className={`${css.input} ${css.mono}`} value={hash} onChange={(e) => setHash(e.target.value)} data-testid="fair-crash-hash" />
        </label>
        <button type="button" className={s.secondary} onClick={() => void check(hash)} disabled={!fair}>
          <Ico name="shield" size={16} /> {t('fair.verify')}
        </button>
        {err && <div className={css.result} data-ok="false">{err}</div>}
        {res && (
          <div className={css.result} data-ok={ok} data-chain={String(res.chain)} data-testid="fair-result">
            <div className={css.verdict}>
              <Ico name={ok ? 'check' : 'cross'} size={20} />
              {ok ? t('fair.match') : t('fair.mismatch')}
            </div>
            <div className={css.checkLine}>
              <span>{t('fair.check.crashPoint')}</span>
              <bdi>
                {formatMultiplier(res.point, lang)}
                {res.expected !== null && (res.expected === res.point ? ' ✓' : ` ≠ ${formatMultiplier(res.expected, lang)}`)}
              </bdi>
            </div>
            <div className={css.checkLine}>
              <span>{t('fair.check.chain')}</span>
              <b>{res.chain === null ? t('fair.chainUnknown') : res.chain ? '✓' : '✗'}</b>
            </div>
            <span className={css.k}>{t('fair.previousHash')}</span>
            <span className={css.mono}>{res.prev}</span>
          </div>
        )}
      </section>
      <section className={css.section}>
        <h3>{t('fair.recentRounds')}</h3>
        {rounds !== null && rounds.length === 0 && <div className={css.empty}>{t('history.empty')}</div>}
        <ul className={css.list}>
          {(rounds ?? []).map((r) => (
            <li key={r.id} className={css.item}>
              <span className={css.itemMain}>
                #{r.id} · {formatMultiplier(Math.round(r.crashPoint * 100), lang)}
              </span>
              <span className={`${css.itemSub} ${css.mono}`}>{r.hash.slice(0, 20)}…</span>
              <span className={css.itemEnd}>
                <button type="button" className={`${s.secondary} ${css.small}`} onClick={() => void check(r.hash, r)} data-testid="fair-crash-verify">
                  {t('fair.verify')}
                </button>
              </span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
