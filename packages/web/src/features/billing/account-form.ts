import { isValidEmail } from '@flotilla/model';

/** The most cc addresses one account keeps (a bounded request). */
export const MAX_CC_EMAILS = 10;

/**
 * Spec 3 §5 billing account form: the email is required and must be an email; cc emails are a
 * comma-separated list of emails. Returns the body to send, or which rule failed.
 */
export function readAccountForm(email: string, cc: string): { ok: true; body: { email: string; cc_emails: string[] } } | { ok: false; error: 'required' | 'invalid_email' | 'invalid_cc' } {
  const trimmed = email.trim();
  if (trimmed.length === 0) return { ok: false, error: 'required' };
  if (!isValidEmail(trimmed)) return { ok: false, error: 'invalid_email' };
  const ccEmails = cc
    .split(/[,;\s]+/)
    .map((e) => e.trim())
    .filter((e) => e.length > 0);
  if (ccEmails.length > MAX_CC_EMAILS || ccEmails.some((e) => !isValidEmail(e))) return { ok: false, error: 'invalid_cc' };
  return { ok: true, body: { email: trimmed, cc_emails: [...new Set(ccEmails)] } };
}
