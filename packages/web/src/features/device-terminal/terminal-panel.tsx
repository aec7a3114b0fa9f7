import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';

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
}

/** PLACEHOLDER until the terminal slice of issue 15 lands: the panel's frame only. */
export function TerminalPanel(_props: TerminalPanelProps) {
  return (
    <Card variant="outlined" sx={{ width: '100%' }}>
      <CardHeader title="Terminal" />
      <CardContent />
    </Card>
  );
}

export default TerminalPanel;
