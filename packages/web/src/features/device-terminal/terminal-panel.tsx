import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import LinearProgress from '@mui/material/LinearProgress';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { TerminalTarget } from '@flotilla/model';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { sdk } from '../../lib/sdk';
import { tt } from './i18n';
import { canStartSession, defaultTarget, terminalTargetOptions, terminalUnavailableReason, type TerminalTargetOption } from './terminal-availability';
import { TerminalConnection, terminalSocketUrl, type TerminalSocket } from './terminal-connection';
import { hasUnseenActivity, type TerminalNotice, type TerminalSessionState } from './terminal-session';

// xterm.js and its CSS are a chunk of their own, fetched when the first session opens.
const XtermView = lazy(() => import('./xterm-view'));
const SessionHistoryDialog = lazy(() => import('./session-history-dialog'));

/** A service the terminal can open a shell in. */
export interface TerminalService {
  name: string;
  /** The container's status (spec 2 §4 container status). */
  status: string;
}

/**
 * What the device summary hands the terminal panel (spec 2 §2: summary panels, panel state
 * none/logs/tty). Plain facts, so the feature imports no other feature.
 */
export interface TerminalPanelProps {
  uuid: string;
  isOnline: boolean;
  isLocalMode: boolean;
  osVersion: string | null;
  services: TerminalService[];
  canSsh: boolean;
  canSshHost: boolean;
  /** Panel state is 'tty'. */
  expanded: boolean;
  onExpandedChange: (expanded: boolean) => void;
  /**
   * The caller may read the terminal audit trail: an administrator of the device's fleet or
   * organization (the server's rule for `terminal_session`). Shows 'Session history'.
   */
  canReadSessions?: boolean;
  /** The device's name, for the session history's device column. */
  deviceName?: string;
}

interface Session {
  id: string;
  target: TerminalTarget;
  connection: TerminalConnection;
}

/** The size a session asks for before its view has measured the panel. */
const INITIAL_SIZE = { cols: 80, rows: 24 };
const TERMINAL_HEIGHT = 360;
const TERMINAL_HEIGHT_EXPANDED = 'calc(100vh - 320px)';

let nextSessionId = 0;

function openConnection(uuid: string, target: TerminalTarget): TerminalConnection {
  const connection = new TerminalConnection({ uuid, target, ...INITIAL_SIZE }, terminalSocketUrl(window.location), {
    // The browser WebSocket is a TerminalSocket (its handlers take wider events).
    openSocket: (url) => new WebSocket(url) as unknown as TerminalSocket,
    getToken: async () => (await sdk.auth.getToken()) ?? '',
  });
  connection.start();
  return connection;
}

function useConnectionState(connection: TerminalConnection): TerminalSessionState {
  return useSyncExternalStore(
    useCallback((notify) => connection.onState(notify), [connection]),
    () => connection.state,
  );
}

/** A notice in words (spec 2 §4 messages; 'unauthorized' in the server's own words). */
export function noticeText(notice: TerminalNotice): string {
  switch (notice.kind) {
    case 'unauthorized':
      return notice.message;
    case 'reconnecting':
      return tt('status.reconnecting', { attempt: notice.attempt, of: notice.of });
    default:
      return tt(`status.${notice.kind}`);
  }
}

function targetLabel(target: TerminalTarget): string {
  return target === 'host' ? tt('host_os') : target.slice('service:'.length);
}

function SessionTabLabel({ session, unseen }: { session: Session; unseen: boolean }) {
  const state = useConnectionState(session.connection);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <span>{targetLabel(session.target)}</span>
      <Typography component="span" variant="caption" color={state.status === 'failed' ? 'error' : 'text.secondary'}>
        {tt(`state.${state.status}`)}
      </Typography>
      {unseen ? <Box component="span" role="img" aria-label={tt('new_activity')} sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: 'info.main', display: 'inline-block' }} /> : null}
    </Stack>
  );
}

function SessionStatus({ session, onClose }: { session: Session; onClose: () => void }) {
  const state = useConnectionState(session.connection);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between', minHeight: 36 }}>
      <Typography role="status" aria-label={tt('terminal_of', { target: targetLabel(session.target) })} variant="body2" color={state.status === 'failed' ? 'error' : 'text.secondary'}>
        {noticeText(state.notice)}
      </Typography>
      <Button size="small" onClick={onClose}>
        {tt('close_session')}
      </Button>
    </Stack>
  );
}

function TargetOption({ option }: { option: TerminalTargetOption }) {
  return <ListItemText primary={targetLabel(option.target)} secondary={option.disabledReason ? tt(`unavailable.${option.disabledReason}`) : option.status} />;
}

/**
 * The device summary's terminal panel (spec 2 §2, §4 terminal session, §5 availability, §6
 * resin.device.ssh / ssh-host, §7 terminal): pick a target (the host OS or a service), open
 * sessions as tabs — each its own WebSocket and xterm — with their states and messages,
 * unseen activity on inactive tabs, expand to panel state 'tty', and the session history for
 * fleet administrators. Changing the device closes every session.
 */
export function TerminalPanel(props: TerminalPanelProps) {
  const { uuid, expanded, onExpandedChange } = props;
  const facts = useMemo(
    () => ({ isOnline: props.isOnline, isLocalMode: props.isLocalMode, osVersion: props.osVersion, services: props.services, canSsh: props.canSsh, canSshHost: props.canSshHost }),
    [props.isOnline, props.isLocalMode, props.osVersion, props.services, props.canSsh, props.canSshHost],
  );
  const options = useMemo(() => terminalTargetOptions(facts), [facts]);
  const [sessions, setSessions] = useState<Session[]>([]);
  const [activeId, setActiveId] = useState<string | null>(null);
  const [unseen, setUnseen] = useState<ReadonlySet<string>>(new Set());
  const [picked, setPicked] = useState<TerminalTarget | ''>('');
  const [historyOpen, setHistoryOpen] = useState(false);
  const activeRef = useRef<string | null>(null);
  activeRef.current = activeId;
  const sessionsRef = useRef<Session[]>([]);
  sessionsRef.current = sessions;

  // Spec 2 §4: changing the device closes all terminal sessions (and leaving the page too).
  useEffect(() => {
    return () => {
      for (const s of sessionsRef.current) s.connection.close();
      sessionsRef.current = [];
      setSessions([]);
      setActiveId(null);
      setUnseen(new Set());
      setPicked('');
    };
  }, [uuid]);

  const chosen = picked !== '' && options.some((o) => o.target === picked && !o.disabledReason) ? picked : defaultTarget(options);
  const chosenOption = options.find((o) => o.target === chosen);
  const unavailable = terminalUnavailableReason(facts, sessions.length);
  const canStart = unavailable === undefined && canStartSession(facts, chosenOption);

  const start = () => {
    if (!chosenOption || !canStart) return;
    nextSessionId += 1;
    const id = `terminal-${nextSessionId}`;
    const connection = openConnection(uuid, chosenOption.target);
    connection.onData(() => {
      if (activeRef.current !== id) setUnseen((prev) => (prev.has(id) ? prev : new Set(prev).add(id)));
    });
    setSessions((prev) => [...prev, { id, target: chosenOption.target, connection }]);
    activate(id);
  };

  const activate = (id: string) => {
    setActiveId(id);
    setUnseen((prev) => {
      if (!prev.has(id)) return prev;
      const next = new Set(prev);
      next.delete(id);
      return next;
    });
  };

  const closeSession = (id: string) => {
    const index = sessions.findIndex((s) => s.id === id);
    const session = sessions[index];
    if (!session) return;
    session.connection.close();
    const rest = sessions.filter((s) => s.id !== id);
    setSessions(rest);
    if (activeId === id) setActiveId(rest[Math.min(index, rest.length - 1)]?.id ?? null);
  };

  const active = sessions.find((s) => s.id === activeId);
  const height = expanded ? TERMINAL_HEIGHT_EXPANDED : TERMINAL_HEIGHT;

  return (
    <Card component="section" aria-label={tt('title')} variant="outlined" sx={{ width: '100%' }}>
      <CardHeader
        title={tt('title')}
        slotProps={{ title: { component: 'h2', variant: 'h6' } }}
        action={
          <Stack direction="row" spacing={1}>
            {props.canReadSessions ? (
              <Button size="small" onClick={() => setHistoryOpen(true)}>
                {tt('history.open')}
              </Button>
            ) : null}
            <Button size="small" aria-pressed={expanded} onClick={() => onExpandedChange(!expanded)}>
              {expanded ? tt('collapse') : tt('expand')}
            </Button>
          </Stack>
        }
      />
      <CardContent sx={{ pt: 0 }}>
        <Stack spacing={1.5}>
          {unavailable ? <Alert severity="info">{tt(`unavailable.${unavailable}`)}</Alert> : null}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
            <TextField
              select
              size="small"
              label={tt('target')}
              value={chosen ?? ''}
              onChange={(e) => setPicked(e.target.value as TerminalTarget)}
              disabled={unavailable !== undefined && sessions.length === 0}
              sx={{ minWidth: 220 }}
              slotProps={{ select: { renderValue: (value) => (value ? targetLabel(value as TerminalTarget) : '') } }}
            >
              {options.map((o) => (
                <MenuItem key={o.target} value={o.target} disabled={o.disabledReason !== undefined}>
                  <TargetOption option={o} />
                </MenuItem>
              ))}
            </TextField>
            <Button variant="contained" onClick={start} disabled={!canStart}>
              {tt('start')}
            </Button>
          </Stack>
          {sessions.length === 0 && !unavailable ? (
            <Typography variant="body2" color="text.secondary">
              {tt('no_sessions')}
            </Typography>
          ) : null}
          {sessions.length > 0 ? (
            <>
              <Tabs value={activeId ?? false} onChange={(_e, id: string) => activate(id)} variant="scrollable" scrollButtons="auto" aria-label={tt('sessions')}>
                {sessions.map((s) => (
                  <Tab key={s.id} value={s.id} label={<SessionTabLabel session={s} unseen={hasUnseenActivity(unseen, s.id, activeId)} />} sx={{ textTransform: 'none' }} />
                ))}
              </Tabs>
              {active ? <SessionStatus session={active} onClose={() => closeSession(active.id)} /> : null}
              <Suspense fallback={<LinearProgress aria-label={tt('status.connecting')} />}>
                <Box>
                  {sessions.map((s) => (
                    <XtermView key={s.id} connection={s.connection} active={s.id === activeId} label={tt('terminal_of', { target: targetLabel(s.target) })} height={height} />
                  ))}
                </Box>
              </Suspense>
            </>
          ) : null}
        </Stack>
      </CardContent>
      {historyOpen ? (
        <Suspense fallback={null}>
          <SessionHistoryDialog uuid={uuid} deviceName={props.deviceName ?? uuid.slice(0, 7)} open={historyOpen} onClose={() => setHistoryOpen(false)} />
        </Suspense>
      ) : null}
    </Card>
  );
}

export default TerminalPanel;
