import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Card, Muted } from '../../../components/Page';
import { consoleApi, type NoteRow } from '../../api';
import { formatTime } from '../../logic';
import { Button, Empty, Ltr, Notice, TextAreaRow, useErrorText } from '../../ui';
import css from '../pages.module.css';

const MAX_NOTE = 2000;

/** Staff notes on the player (kept for good, audited) and the form to add one. */
export function Notes({ playerId, notes, canAdd }: { playerId: number; notes: NoteRow[]; canAdd: boolean }) {
  const { t, i18n } = useTranslation('console');
  const message = useErrorText();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [addNote, adding] = consoleApi.useAddNoteMutation();
  const length = [...body.trim()].length;
  const why = length === 0 ? t('notes.empty') : length > MAX_NOTE ? t('notes.tooLong', { max: MAX_NOTE }) : null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (why) return;
    setError(null);
    setSaved(false);
    const res = await addNote({ id: playerId, body: body.trim() });
    if (res.error) {
      setError(message(res.error));
      return;
    }
    setBody('');
    setSaved(true);
  };
  return (
    <Card title={t('card.section.notes')} id="card-notes" lead={t('notes.lead')}>
      {canAdd ? (
        <form className={css.formGrid} onSubmit={(e) => void submit(e)} data-testid="note-form">
          <TextAreaRow
            label={t('notes.add')}
            hint={t('notes.count', { n: length, max: MAX_NOTE })}
            value={body}
            rows={3}
            onChange={(e) => {
              setBody(e.target.value);
              setSaved(false);
            }}
            data-testid="note-input"
          />
          <div className={css.formActions}>
            <Button tone="primary" type="submit" busy={adding.isLoading} disabledReason={why} data-testid="note-submit">
              {t('notes.save')}
            </Button>
          </div>
          {error ? <Notice tone="error">{error}</Notice> : null}
          {saved ? (
            <Notice tone="ok" testId="note-saved">
              {t('notes.saved')}
            </Notice>
          ) : null}
        </form>
      ) : null}
      {notes.length === 0 ? (
        <Empty title={t('notes.none')} />
      ) : (
        <ol className={css.timeline} data-testid="notes">
          {notes.map((n) => (
            <li key={n.id} className={css.timelineItem} data-testid="note">
              <div className={css.timelineHead}>
                <strong>
                  <Ltr>{n.author}</Ltr>
                </strong>
                <Muted as="span">{formatTime(n.createdAt, i18n.language)}</Muted>
              </div>
              <p className={css.noteBody}>{n.body}</p>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
