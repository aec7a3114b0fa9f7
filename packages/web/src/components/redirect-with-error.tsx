import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useNotify } from '../lib/notify';
import { FullPageSpinner } from './full-page-status';

/**
 * Shows `message` as a danger toast and replaces the page with `to` (a bad id in the URL,
 * a missing or frozen organization). The ref keeps StrictMode's second effect run from
 * toasting twice.
 */
export function RedirectWithError({ to, message }: { to: string; message: string }) {
  const navigate = useNavigate();
  const notify = useNotify();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    notify.error(message);
    void navigate(to, { replace: true });
  }, [to, message, navigate, notify]);
  return <FullPageSpinner />;
}
