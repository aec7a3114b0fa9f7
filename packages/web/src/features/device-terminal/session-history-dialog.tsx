import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { parseTerminalTarget } from '@flotilla/model';
import { useTranslation } from 'react-i18next';
import { DateText } from '../../components/date-text';
import { useTerminalSessions } from './api/terminal-sessions';
import { tt } from './i18n';

export interface SessionHistoryDialogProps {
  uuid: string;
  deviceName: string;
  open: boolean;
  onClose: () => void;
}

/** 'Host OS' or the service's name. */
export function targetLabel(target: string): string {
  const parsed = parseTerminalTarget(target);
  if (!parsed) return target;
  return parsed.service === null ? tt('host_os') : parsed.service;
}

/** The terminal audit trail of one device (who, device, target, start, end), newest first. */
export function SessionHistoryDialog({ uuid, deviceName, open, onClose }: SessionHistoryDialogProps) {
  const { t } = useTranslation();
  const sessions = useTerminalSessions(uuid, open);
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="terminal-history-title">
      <DialogTitle id="terminal-history-title">{tt('history.title')}</DialogTitle>
      <DialogContent>
        {sessions.isError ? <Alert severity="error">{tt('history.error')}</Alert> : null}
        {sessions.data && sessions.data.length === 0 ? <Typography>{tt('history.empty')}</Typography> : null}
        {sessions.data && sessions.data.length > 0 ? (
          <TableContainer>
            <Table size="small" aria-label={tt('history.title')}>
              <TableHead>
                <TableRow>
                  <TableCell>{tt('history.who')}</TableCell>
                  <TableCell>{tt('history.device')}</TableCell>
                  <TableCell>{tt('history.target')}</TableCell>
                  <TableCell>{tt('history.start')}</TableCell>
                  <TableCell>{tt('history.end')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {sessions.data.map((s) => (
                  <TableRow key={s.id}>
                    <TableCell>{s.username}</TableCell>
                    <TableCell>{deviceName}</TableCell>
                    <TableCell>{targetLabel(s.target)}</TableCell>
                    <TableCell>
                      <DateText value={s.started_at} />
                    </TableCell>
                    <TableCell title={s.end_reason ?? undefined}>{s.ended_at ? <DateText value={s.ended_at} /> : tt('history.open_session')}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

export default SessionHistoryDialog;
