import { Button, Chip, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { RowState } from './staging';
import './i18n';

const COLOR = { added: 'success', updated: 'warning', deleted: 'error' } as const;

interface StagedRowMarkProps {
  state: RowState;
  /** The row's name, for the undo button's accessible name. */
  name: string;
  /** The server's message from the last failed apply of this row. */
  error?: string | undefined;
  onUndo: () => void;
  disabled?: boolean;
}

/** A staged row's mark (Added, Changed, Deleted), its undo, and the server's error if applying it failed. */
export function StagedRowMark({ state, name, error, onUndo, disabled }: StagedRowMarkProps) {
  const { t } = useTranslation();
  if (state === 'unchanged') return null;
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Chip size="small" variant="outlined" color={COLOR[state]} label={t(`staging.state_${state}`)} />
        <Button size="small" onClick={onUndo} disabled={disabled} aria-label={t('staging.undo_row', { name })}>
          {t('staging.undo')}
        </Button>
      </Stack>
      {error !== undefined && (
        <Typography role="alert" variant="body2" color="error">
          {error}
        </Typography>
      )}
    </Stack>
  );
}
