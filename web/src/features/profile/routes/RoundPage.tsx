import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { ACCOUNT_NS } from '../../../app/i18n';
import { errorText, isApiError } from '../../../app/errors';
import { MobileButton } from '../../../components/MobileButton';
import { currencyDecimals } from '../../../components/money';
import { Spinner } from '../../../components/Spinner';
// The studio's verifier (WebCrypto, no dependency): the same code the game's own fairness
// panel runs, so a round checks out here exactly as it does in the game.
import { crashPoint } from '../../../studio/fair';
import { formatMoney, formatMultiplier } from '../../../studio/money';
import type { SlotInfo } from '../../../studio/slots/model';
import type { GameKind } from '../../../studio/types';
import { verifyRound, type Verification } from '../../../studio/verify';
import { profileApi, type RoundRecord } from '../api';
import { BackButton } from '../../../components/BackButton';
import { Card, Muted, PageHeader } from '../../../components/Page';
import { OpMessage } from '../../../components/Operations';
import css from '../components/Profile.module.css';

const NS = [...ACCOUNT_NS, 'studio'] as const;

interface SeedRound {
  roundId: number;
  time: string;
  bet: number;
  win: number;
  status: string;
  outcome: unknown;
  serverSeedHash: string;
  serverSeed: string | null;
  clientSeed: string;
  nonce: number;
}

interface CrashRound {
  roundId: number;
  time: string;
  bet: number;
  win: number;
  cashedOutAt: number | null;
  status: string;
  crashPoint: number | null;
  hash: string | null;
}

/** One round's fairness record, opened from the operations history, with an in-browser check. */
export default function RoundPage() {
  const { t, i18n } = useTranslation(NS);
  const [params] = useSearchParams();
  const game = params.get('game') ?? '';
  const round = params.get('round') ?? '';
  const { data, error, isLoading } = profileApi.useRoundRecordQuery({ game, round }, { skip: !game || !round });

  return (
    <>
      <PageHeader title={t('history.roundTitle')} back={<BackButton fallback="/profile" />} />
      {isLoading && (
        <div className={css.center}>
          <Spinner />
        </div>
      )}
      {!isLoading && (error || !data) && (
        <OpMessage alert>
          {error && isApiError(error) ? t(errorText(error).key, errorText(error).params) : t('loadFailed')}
        </OpMessage>
      )}
      {data && <Record rec={data} lang={i18n.language} />}
    </>
  );
}

function Record({ rec, lang }: { rec: RoundRecord; lang: string }) {
  const { t } = useTranslation(NS);
  const exp = currencyDecimals(rec.currency);
  const r = rec.round as unknown as SeedRound & CrashRound;
  const dateFmt = new Intl.DateTimeFormat(`${lang}-u-nu-latn`, { dateStyle: 'medium', timeStyle: 'medium' });
  const money = (minor: number) => formatMoney(minor, exp, rec.currency, lang);
  return (
    <Card title={<bdi>{rec.gameName}</bdi>} data-testid="round-record">
      <dl className={css.roundFacts}>
        <dt>{t('history.round')}</dt>
        <dd>
          <bdi data-testid="round-id">{String(r.roundId)}</bdi>
        </dd>
        <dt>{t('history.time')}</dt>
        <dd>{dateFmt.format(new Date(r.time))}</dd>
        <dt>{t('history.stake')}</dt>
        <dd>
          <bdi dir="ltr">{money(r.bet)}</bdi>
        </dd>
        <dt>{t('history.win')}</dt>
        <dd>
          <bdi dir="ltr">{money(r.win)}</bdi>
        </dd>
        {rec.kind === 'crash' ? <CrashFacts r={r} lang={lang} /> : <SeedFacts r={r} />}
      </dl>
      {rec.kind === 'crash' ? <CrashCheck r={r} /> : <SeedCheck rec={rec} r={r} />}
    </Card>
  );
}

function SeedFacts({ r }: { r: SeedRound }) {
  const { t } = useTranslation(NS);
  return (
    <>
      <dt>{t('studio:fair.serverSeedHash')}</dt>
      <dd className={css.mono}>{r.serverSeedHash}</dd>
      <dt>{t('studio:fair.serverSeed')}</dt>
      <dd className={r.serverSeed === null ? undefined : css.mono} data-testid="round-server-seed">
        {r.serverSeed ?? <Muted as="span">{t('history.seedHidden')}</Muted>}
      </dd>
      <dt>{t('studio:fair.clientSeed')}</dt>
      <dd className={css.mono}>
        <bdi>{r.clientSeed}</bdi>
      </dd>
      <dt>{t('studio:fair.nonce')}</dt>
      <dd>{r.nonce}</dd>
    </>
  );
}

function CrashFacts({ r, lang }: { r: CrashRound; lang: string }) {
  const { t } = useTranslation(NS);
  return (
    <>
      <dt>{t('studio:fair.check.crashPoint')}</dt>
      <dd>
        <bdi dir="ltr">{r.crashPoint === null ? '—' : formatMultiplier(r.crashPoint, lang)}</bdi>
      </dd>
      <dt>{t('history.cashedOutAt')}</dt>
      <dd>
        <bdi dir="ltr">{r.cashedOutAt === null ? '—' : formatMultiplier(r.cashedOutAt, lang)}</bdi>
      </dd>
      <dt>{t('studio:fair.roundHash')}</dt>
      <dd className={css.mono}>{r.hash ?? <Muted as="span">{t('history.roundNotOver')}</Muted>}</dd>
    </>
  );
}

function SeedCheck({ rec, r }: { rec: RoundRecord; r: SeedRound }) {
  const { t } = useTranslation(NS);
  const [result, setResult] = useState<Verification | null>(null);
  if (r.serverSeed === null) return <p className={css.hint}>{t('history.seedHiddenHint')}</p>;
  const serverSeed = r.serverSeed;
  const run = async () =>
    setResult(
      await verifyRound(
        rec.kind as GameKind,
        { serverSeed, clientSeed: r.clientSeed, nonce: r.nonce },
        { serverSeedHash: r.serverSeedHash, outcome: r.outcome, slotInfo: (rec.slot as SlotInfo | null) ?? null },
      ),
    );
  return (
    <div className={css.roundCheck}>
      <MobileButton block onClick={() => void run()} data-testid="round-verify">
        {t('studio:fair.verify')}
      </MobileButton>
      {result && (
        <div role="status" data-testid="round-verdict" data-ok={result.ok}>
          <p className={result.ok ? css.okText : css.badText}>{result.ok ? t('studio:fair.match') : t('studio:fair.mismatch')}</p>
          <ul className={css.checkList}>
            <li>
              {t('studio:fair.commitment')}: <b>{result.commitment ? '✓' : '✗'}</b>
            </li>
            {result.rows.map((row, i) => (
              <li key={i}>
                {t(`studio:fair.check.${row.label}`)}: <bdi dir="ltr">{row.computed}</bdi> <b>{row.match === false ? '✗' : '✓'}</b>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function CrashCheck({ r }: { r: CrashRound }) {
  const { t, i18n } = useTranslation(NS);
  const fairness = profileApi.useCrashFairnessQuery(undefined, { skip: r.hash === null });
  const [point, setPoint] = useState<number | null>(null);
  const hash = r.hash;
  const salt = fairness.data?.salt;
  if (hash === null || r.crashPoint === null) return <p className={css.hint}>{t('history.roundNotOver')}</p>;
  const ok = point !== null && point === r.crashPoint;
  return (
    <div className={css.roundCheck}>
      <p className={css.hint}>{t('studio:fair.crashIntro')}</p>
      <MobileButton block disabled={!salt} onClick={() => salt && void crashPoint(hash, salt).then(setPoint)} data-testid="round-verify">
        {t('studio:fair.verify')}
      </MobileButton>
      {point !== null && (
        <div role="status" data-testid="round-verdict" data-ok={ok}>
          <p className={ok ? css.okText : css.badText}>{ok ? t('studio:fair.match') : t('studio:fair.mismatch')}</p>
          <p>
            {t('studio:fair.check.crashPoint')}: <bdi dir="ltr">{formatMultiplier(point, i18n.language)}</bdi>
          </p>
        </div>
      )}
    </div>
  );
}
