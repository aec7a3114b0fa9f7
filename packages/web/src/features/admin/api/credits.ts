import type { CreditAdjustment } from '@flotilla/model';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

/**
 * /admin "Credits and refunds" (issue 18): organizations with their credit balance, their
 * credit bundles, their invoices (balena-sdk `billing.getInvoices`: platform administrators
 * pass its billing access), the log of grants and refunds; granting complimentary credits and
 * refunding. Server-side: /admin/v1/billing/… (platform administrators; docs/billing.md).
 */
export interface AdminCreditOrganization {
  id: number;
  name: string;
  handle: string;
  plan: { code: string; title: string } | null;
  credit_balance: number;
}

export interface AdminCreditBundle {
  id: number;
  created_at: string;
  organization: { id: number; name: string; handle: string };
  original_quantity: number;
  payment_status: string;
  total_cost: number;
  available_balance: number;
  expires_on__date: string;
  created_by: string | null;
  invoice: { number: string; state: string; total_in_cents: number } | null;
}

export const ADMIN_CREDITS_PAGE_SIZE = 10;
const key = ['admin', 'billing', 'credits'] as const;

const get = async <T>(url: string): Promise<T> => (await sdk.request.send<T>({ method: 'GET', url, baseUrl: window.location.origin })).body;
const post = async <T>(url: string, body: object): Promise<T> => (await sdk.request.send<T>({ method: 'POST', url, baseUrl: window.location.origin, body })).body;

export function useCreditOrganizations(search: string, enabled: boolean) {
  return useQuery({
    queryKey: [...key, 'organizations', search],
    queryFn: () => get<{ total: number; organizations: AdminCreditOrganization[] }>(`/admin/v1/billing/organizations?limit=${ADMIN_CREDITS_PAGE_SIZE}&search=${encodeURIComponent(search)}`),
    enabled,
  });
}

export function useOrganizationBundles(organizationId: number, page: number) {
  return useQuery({
    queryKey: [...key, 'bundles', organizationId, page],
    queryFn: () =>
      get<{ total: number; bundles: AdminCreditBundle[] }>(
        `/admin/v1/billing/credit-bundles?organization_id=${organizationId}&limit=${ADMIN_CREDITS_PAGE_SIZE}&offset=${page * ADMIN_CREDITS_PAGE_SIZE}`,
      ),
  });
}

export function useOrganizationInvoices(organizationId: number) {
  return useQuery({ queryKey: [...key, 'invoices', organizationId], queryFn: () => sdk.models.billing.getInvoices(organizationId) });
}

export function useCreditAdjustments(organizationId: number | null) {
  return useQuery({
    queryKey: [...key, 'adjustments', organizationId],
    queryFn: () =>
      get<{ total: number; adjustments: CreditAdjustment[] }>(
        `/admin/v1/billing/credit-adjustments?limit=${ADMIN_CREDITS_PAGE_SIZE}${organizationId === null ? '' : `&organization_id=${organizationId}`}`,
      ),
  });
}

/** After a grant or a refund every list of the section is stale (balances, states, the log). */
function useInvalidating<TVars>(fn: (vars: TVars) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: key }) });
}

export const useGrantCredits = () =>
  useInvalidating((v: { organizationId: number; quantity: number; reason: string }) =>
    post(`/admin/v1/billing/organizations/${v.organizationId}/credits`, { quantity: v.quantity, reason: v.reason }),
  );

export const useRefundBundle = () => useInvalidating((v: { id: number; reason: string }) => post(`/admin/v1/billing/credit-bundles/${v.id}/refund`, { reason: v.reason }));

export const useRefundInvoice = () =>
  useInvalidating((v: { number: string; reason: string }) => post(`/admin/v1/billing/invoices/${encodeURIComponent(v.number)}/refund`, { reason: v.reason }));
