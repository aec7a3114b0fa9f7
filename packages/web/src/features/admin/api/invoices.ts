import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

/**
 * /admin "Invoices" (issue 18): every organization's unpaid invoices, paged, and marking one
 * paid (the manual provider: the money arrived by bank transfer). Server-side:
 * GET /admin/v1/billing/invoices and POST …/{number}/mark-paid (platform administrators).
 */
export interface AdminInvoice {
  invoice_number: string;
  uuid: string;
  created_at: string;
  due_on: string | null;
  currency: string;
  total_in_cents: string;
  state: string;
  organization: { id: number; name: string; handle: string };
}

export const ADMIN_INVOICES_PAGE_SIZE = 25;
export const adminInvoicesQueryKey = ['admin', 'billing', 'invoices'] as const;

export async function getUnpaidInvoices(page: number): Promise<{ total: number; invoices: AdminInvoice[] }> {
  const { body } = await sdk.request.send<{ total: number; invoices: AdminInvoice[] }>({
    method: 'GET',
    url: `/admin/v1/billing/invoices?limit=${ADMIN_INVOICES_PAGE_SIZE}&offset=${page * ADMIN_INVOICES_PAGE_SIZE}`,
    baseUrl: window.location.origin,
  });
  return body;
}

export function useUnpaidInvoices(page: number, enabled: boolean) {
  return useQuery({ queryKey: [...adminInvoicesQueryKey, page], queryFn: () => getUnpaidInvoices(page), enabled });
}

export async function markInvoicePaid(invoiceNumber: string): Promise<void> {
  await sdk.request.send({ method: 'POST', url: `/admin/v1/billing/invoices/${encodeURIComponent(invoiceNumber)}/mark-paid`, baseUrl: window.location.origin, body: {} });
}

export function useMarkInvoicePaid() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: markInvoicePaid, onSuccess: () => queryClient.invalidateQueries({ queryKey: adminInvoicesQueryKey }) });
}
