import { errorStatus } from '../../lib/errors';

/** Spec 1 §8: which message a failed portal sign-in shows. */
export function portalErrorKey(err: unknown): 'not_configured' | 'errors.no_support_access' | 'errors.unknown_access_error' {
  if (errorStatus(err) === 404) return 'not_configured';
  const text = JSON.stringify((err as { body?: unknown; message?: unknown }).body ?? (err as { message?: unknown }).message ?? '');
  return /not authori[sz]ed/i.test(text) ? 'errors.no_support_access' : 'errors.unknown_access_error';
}
