import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { DateText, RelativeTime } from '../../../components/date-text';
import { useVariableHistory, type HistoryTarget, type VariableChange } from './history-api';
import './i18n';

const VALUE_SX = { fontFamily: 'monospace', wordBreak: 'break-all' } as const;

function Value({ value }: { value: string | null }) {
  const { t } = useTranslation();
  if (value === null) return <Typography component="span" variant="body2" color="text.secondary">{t('variablesHistory.no_value')}</Typography>;
  return <Box component="span" sx={VALUE_SX}>{value}</Box>;
}

/**
 * The history of one variable (issue 16): who changed it, when (relative, exact on hover and
 * in full), what (created, changed, deleted) and old → new, newest first, from the server's
 * record of every write (`variable_change`). Fleet members read it, observers included.
 */
export function VariableHistoryDialog({ target, onClose }: { target: HistoryTarget; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const history = useVariableHistory(target);
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{t('variablesHistory.title', { name: target.name })}</DialogTitle>
      <DialogContent>
        {history.isError ? (
          <Typography color="error">{t('variablesHistory.load_failed')}</Typography>
        ) : history.isSuccess && history.data.length === 0 ? (
          <Typography>{t('variablesHistory.empty')}</Typography>
        ) : (
          <DataTable<VariableChange>
            label={t('variablesHistory.table', { name: target.name })}
            loading={history.isPending}
            rows={history.data}
            getRowKey={(r) => r.id}
            columns={[
              {
                key: 'when',
                header: t('variablesHistory.when'),
                render: (r) => (
                  <>
                    <RelativeTime value={r.created_at} />
                    <Typography variant="caption" color="text.secondary" component="div">
                      <DateText value={r.created_at} />
                    </Typography>
                  </>
                ),
              },
              { key: 'who', header: t('variablesHistory.who'), render: (r) => r.actor_name ?? t('variablesHistory.unknown_actor') },
              {
                key: 'action',
                header: t('variablesHistory.action'),
                render: (r) => <Chip size="small" variant="outlined" label={t(`variablesHistory.action_${r.action}`)} />,
              },
              {
                key: 'change',
                header: t('variablesHistory.change'),
                render: (r) => (
                  <span data-testid="history-change">
                    <Value value={r.old_value} /> {'→'} <Value value={r.new_value} />
                  </span>
                ),
              },
            ]}
          />
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
