import { billingAccountProblem } from '@flotilla/model';

/**
 * Spec 3 §5 billing account form: the email is required; the rest is the model's
 * `billingAccountProblem` (the server's own rule: a valid email, at most 10 valid, distinct cc
 * emails). CC emails are typed as a comma-separated list.
 */
export function readAccountForm(email: string, cc: string): { ok: true; body: { email: string; cc_emails: string[] } } | { ok: false; error: 'required' } | { ok: false; error: 'invalid'; message: string; field: 'email' | 'cc' } {
  const trimmed = email.trim();
  if (trimmed.length === 0) return { ok: false, error: 'required' };
  const ccEmails = cc
    .split(/[,;\s]+/)
    .map((e) => e.trim())
    .filter((e) => e.length > 0);
  const emailProblem = billingAccountProblem({ email: trimmed });
  if (emailProblem) return { ok: false, error: 'invalid', message: emailProblem, field: 'email' };
  const problem = billingAccountProblem({ email: trimmed, cc_emails: ccEmails });
  if (problem) return { ok: false, error: 'invalid', message: problem, field: 'cc' };
  return { ok: true, body: { email: trimmed, cc_emails: ccEmails } };
}
