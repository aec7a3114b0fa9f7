import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { PermissionTooltip } from './permission-tooltip';

export interface RowAction {
  /** The button's text (Edit, Remove …). */
  label: string;
  /** The button's accessible name, naming the row ("Remove tag room"). */
  name: string;
  onClick: () => void;
  /** A destructive action (remove, revoke): drawn in the error colour. */
  danger?: boolean;
}

interface Props {
  actions: readonly RowAction[];
  /** Whether the user may use them (spec 2 §6: otherwise disabled, with the denial tooltip). */
  allowed?: boolean;
  align?: 'start' | 'end';
}

/** A table row's action buttons (edit, remove …), each under the permission tooltip. */
export function RowActions({ actions, allowed = true, align = 'start' }: Props) {
  return (
    <Stack direction="row" spacing={1} sx={align === 'end' ? { justifyContent: 'flex-end' } : undefined}>
      {actions.map((action) => (
        <PermissionTooltip key={action.name} allowed={allowed}>
          <Button size="small" color={action.danger ? 'error' : undefined} disabled={!allowed} onClick={action.onClick} aria-label={action.name}>
            {action.label}
          </Button>
        </PermissionTooltip>
      ))}
    </Stack>
  );
}
