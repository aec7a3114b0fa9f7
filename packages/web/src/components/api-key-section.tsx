import { Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { FullPageError } from './full-page-status';

interface Props {
  /** The section's heading, also its accessible name. */
  title: string;
  explanation: string;
  /** The buttons beside the heading (create, import). */
  actions: ReactNode;
  /** The list's state: failed to load, or loaded and empty. */
  loadFailed: boolean;
  loadFailedText: string;
  onRetry: () => void;
  empty: boolean;
  emptyText: string;
  /** The table (and its pagination) when there is something to show. */
  children: ReactNode;
  /** The section's dialogs. */
  dialogs?: ReactNode;
}

/**
 * A list of keys with its heading, buttons and explanation: user API keys and SSH keys
 * (spec 1 §2) and a fleet's provisioning keys (spec 2 §9) look and behave the same.
 */
export function ApiKeySection({ title, explanation, actions, loadFailed, loadFailedText, onRetry, empty, emptyText, children, dialogs }: Props) {
  return (
    <Stack component="section" aria-label={title} spacing={1}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        <Stack direction="row" spacing={1}>
          {actions}
        </Stack>
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {explanation}
      </Typography>
      {loadFailed ? <FullPageError message={loadFailedText} onRetry={onRetry} /> : empty ? <Typography color="text.secondary">{emptyText}</Typography> : children}
      {dialogs}
    </Stack>
  );
}
