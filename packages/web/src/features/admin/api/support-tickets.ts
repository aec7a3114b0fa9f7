import type { TicketField, TicketFieldInput, TicketStatus } from '@flotilla/model';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

/**
 * /admin "Support tickets" and "Support ticket fields" (issue 19 item 1): support agents and
 * platform administrators list, read, answer, close and reopen tickets; platform
 * administrators change the fields. Server-side: /admin/v1/support/… (docs/support.md).
 */
export interface AdminTicketSummary {
  id: number;
  created_at: string;
  status: TicketStatus;
  subject: string;
  organization: { id: number; name: string; handle: string };
  requester: { id: number | null; username: string; email: string };
  forward_error: string | null;
}

export interface AdminTicket extends AdminTicketSummary {
  description: string;
  email_ccs: string[];
  fields: { id: number; title: string; display: string }[];
  attachments: { id: number; filename: string; size: number; url: string }[];
  replies: { id: number; created_at: string; author: string; body: string }[];
}

export const ADMIN_TICKETS_PAGE_SIZE = 10;
const key = ['admin', 'support'] as const;
const origin = () => window.location.origin;
const get = async <T>(url: string): Promise<T> => (await sdk.request.send<T>({ method: 'GET', url, baseUrl: origin() })).body;
const send = async <T>(method: 'POST' | 'PATCH' | 'PUT', url: string, body: object): Promise<T> => (await sdk.request.send<T>({ method, url, baseUrl: origin(), body })).body;

export function useAdminTickets(status: TicketStatus | null, page: number) {
  return useQuery({
    queryKey: [...key, 'tickets', status, page],
    queryFn: () =>
      get<{ total: number; tickets: AdminTicketSummary[] }>(
        `/admin/v1/support/tickets?limit=${ADMIN_TICKETS_PAGE_SIZE}&offset=${page * ADMIN_TICKETS_PAGE_SIZE}${status ? `&status=${status}` : ''}`,
      ),
  });
}

export function useAdminTicket(id: number | null) {
  return useQuery({ queryKey: [...key, 'ticket', id], queryFn: () => get<AdminTicket>(`/admin/v1/support/tickets/${id}`), enabled: id !== null });
}

export function useReplyToTicket(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => send('POST', `/admin/v1/support/tickets/${id}/replies`, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useSetTicketStatus(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (status: 'open' | 'closed') => send('PATCH', `/admin/v1/support/tickets/${id}`, { status }),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useAdminTicketFields() {
  return useQuery({ queryKey: [...key, 'fields'], queryFn: async () => (await get<{ ticket_fields: TicketField[] }>('/admin/v1/support/ticket-fields')).ticket_fields });
}

export function useSaveTicketField() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, field }: { id: number | null; field: TicketFieldInput }) =>
      id === null ? send<TicketField>('POST', '/admin/v1/support/ticket-fields', field) : send<TicketField>('PATCH', `/admin/v1/support/ticket-fields/${id}`, field),
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, 'fields'] }),
  });
}

export function useReorderTicketFields() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => send('PUT', '/admin/v1/support/ticket-fields/order', { ids }),
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, 'fields'] }),
  });
}
