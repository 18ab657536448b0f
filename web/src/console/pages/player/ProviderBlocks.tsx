import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Card, Muted } from '../../../components/Page';
import { consoleApi } from '../../api';
import { validReason } from '../../logic';
import { Button, Notice, ReasonDialog, TextRow, useErrorText } from '../../ui';
import css from '../pages.module.css';

/**
 * The casino providers this player may not play (admin): each block can be lifted, a provider
 * (or its family: `pragmatic`) blocked; both with a reason the audit trail keeps.
 */
export function ProviderBlocks({ playerId, blocks }: { playerId: number; blocks: string[] }) {
  const { t } = useTranslation('console');
  const message = useErrorText();
  const [provider, setProvider] = useState('');
  const [reason, setReason] = useState('');
  const [unblocking, setUnblocking] = useState<string | null>(null);
  const [note, setNote] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [change, changing] = consoleApi.useProviderBlockMutation();
  const why = !provider.trim() ? t('blocks.needProvider') : !validReason(reason) ? t('reason.required') : null;

  const block = async (e: FormEvent) => {
    e.preventDefault();
    if (why) return;
    setNote(null);
    const name = provider.trim().toLowerCase();
    const res = await change({ id: playerId, provider: name, blocked: true, reason: reason.trim() });
    if (res.error) {
      setNote({ tone: 'error', text: message(res.error) });
      return;
    }
    setProvider('');
    setReason('');
    setNote({ tone: 'ok', text: res.data.changed ? t('blocks.blocked', { provider: name }) : t('blocks.already', { provider: name }) });
  };

  return (
    <Card title={t('blocks.title')} lead={t('blocks.lead')} data-testid="blocks-card">
      {blocks.length === 0 ? (
        <Muted>{t('blocks.none')}</Muted>
      ) : (
        <ul className={css.chips} data-testid="blocks">
          {blocks.map((b) => (
            <li key={b} className={css.chip}>
              <span dir="ltr">{b}</span>
              <Button small tone="ghost" onClick={() => setUnblocking(b)} aria-label={t('blocks.unblockOne', { provider: b })}>
                {t('blocks.unblock')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form className={css.formGrid} onSubmit={(e) => void block(e)}>
        <TextRow
          label={t('blocks.provider')}
          hint={t('blocks.providerHint')}
          value={provider}
          onChange={(e) => setProvider(e.target.value)}
          dir="ltr"
          autoCapitalize="none"
          data-testid="block-provider"
        />
        <TextRow label={t('blocks.reason')} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} data-testid="block-reason" />
        <div className={css.formActions}>
          <Button tone="danger" type="submit" busy={changing.isLoading} disabledReason={why} data-testid="block-submit">
            {t('blocks.block')}
          </Button>
        </div>
      </form>
      {note ? (
        <Notice tone={note.tone} testId="blocks-note">
          {note.text}
        </Notice>
      ) : null}
      {unblocking ? (
        <ReasonDialog
          title={t('blocks.confirmUnblock', { provider: unblocking })}
          label={t('blocks.reason')}
          confirmLabel={t('blocks.unblock')}
          onClose={() => setUnblocking(null)}
          onConfirm={async (why) => {
            setNote(null);
            const res = await change({ id: playerId, provider: unblocking, blocked: false, reason: why });
            if (res.error) return message(res.error);
            setNote({ tone: 'ok', text: t('blocks.unblocked', { provider: unblocking }) });
            return null;
          }}
        />
      ) : null}
    </Card>
  );
}
