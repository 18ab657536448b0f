import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/Page';
import { consoleApi, type PlayerRow } from '../../api';
import { isolate, playerName } from '../../logic';
import { Button, Notice, ReasonDialog, useErrorText } from '../../ui';

/** Ban or lift the ban (admin), with a reason the audit trail keeps; asked in a dialog. */
export function BanAction({ player }: { player: PlayerRow }) {
  const { t } = useTranslation('console');
  const message = useErrorText();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [setBanned] = consoleApi.useSetBannedMutation();
  const banning = !player.isBanned;
  return (
    <Card title={t('ban.title')} lead={player.isBanned ? t('ban.leadBanned') : t('ban.leadActive')} data-testid="ban-card">
      <Button tone={banning ? 'danger' : 'secondary'} onClick={() => setOpen(true)} data-testid={banning ? 'ban-open' : 'unban-open'}>
        {banning ? t('ban.ban') : t('ban.unban')}
      </Button>
      {done ? (
        <Notice tone="ok" testId="ban-done">
          {done}
        </Notice>
      ) : null}
      {open ? (
        <ReasonDialog
          title={banning ? t('ban.confirmBan', { name: isolate(playerName(player)) }) : t('ban.confirmUnban', { name: isolate(playerName(player)) })}
          lead={banning ? t('ban.banEffect') : t('ban.unbanEffect')}
          label={t('ban.reason')}
          confirmLabel={banning ? t('ban.ban') : t('ban.unban')}
          tone={banning ? 'danger' : 'primary'}
          testId="ban-dialog"
          onClose={() => setOpen(false)}
          onConfirm={async (reason) => {
            setDone(null);
            const res = await setBanned({ id: player.id, banned: banning, reason });
            if (res.error) return message(res.error);
            setDone(!res.data.changed ? t('ban.unchanged') : res.data.isBanned ? t('ban.banned') : t('ban.unbanned'));
            return null;
          }}
        />
      ) : null}
    </Card>
  );
}
