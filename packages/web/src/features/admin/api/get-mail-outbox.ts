import { queryOptions, useQuery } from '@tanstack/react-query';
import { pineGet } from '../../../lib/pine';

export interface OutboxMail {
  id: number;
  created_at: string;
  recipient: string;
  subject: string;
  text_body: string;
  sent_via: 'smtp' | 'outbox';
  /** Why the last SMTP attempt failed; null once delivered. */
  error: string | null;
  status: 'queued' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
}

export const MAIL_OUTBOX_PAGE_SIZE = 100;
export const MAIL_OUTBOX_REFETCH_MS = 5_000;
export const mailOutboxQueryKey = ['admin', 'email_outbox'] as const;

/** The newest mails in /v7/email_outbox (platform administrators only; others get 401). */
export async function getMailOutbox(): Promise<OutboxMail[]> {
  // email_outbox is ours, not a balena resource, so the SDK has no model method for it.
  return pineGet('email_outbox', {
    $select: ['id', 'created_at', 'recipient', 'subject', 'text_body', 'sent_via', 'error', 'status', 'attempts', 'next_attempt_at'],
    $orderby: { id: 'desc' },
    $top: MAIL_OUTBOX_PAGE_SIZE,
  });
}

export const mailOutboxQueryOptions = () => queryOptions({ queryKey: mailOutboxQueryKey, queryFn: getMailOutbox });

export function useMailOutbox(enabled: boolean) {
  // While some mail waits for delivery (SMTP retries), watch it go out.
  return useQuery({
    ...mailOutboxQueryOptions(),
    enabled,
    refetchInterval: (query) => (query.state.data?.some((m) => m.status === 'queued') ? MAIL_OUTBOX_REFETCH_MS : false),
  });
}
