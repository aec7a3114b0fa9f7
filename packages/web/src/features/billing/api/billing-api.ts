import type { BillingCycle, BillingInfo } from '@flotilla/model';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorStatus } from '../../../lib/errors';
import { sdk } from '../../../lib/sdk';
import { plansFromRows, type BillingUsage, type PlanRow } from '../billing-view';

/**
 * The billing page's data, all through balena-sdk (`sdk.models.billing.*`, pine for the
 * catalogue and the device count; docs/billing.md "The API").
 */

export const billingKey = (orgId: number) => ['billing', orgId] as const;
const key = (orgId: number, part: string) => [...billingKey(orgId), part] as const;

/** Spec 3 §3 billing info as the server sends it (`{}` when there is no payment method). */
export type PaymentMethod = Partial<BillingInfo>;

export function usePlan(orgId: number) {
  return useQuery({ queryKey: key(orgId, 'plan'), queryFn: () => sdk.models.billing.getPlan(orgId) });
}

/** `GET …/info`: `{}` when there is no payment method → null. */
export function useBillingInfo(orgId: number) {
  return useQuery({
    queryKey: key(orgId, 'info'),
    queryFn: async (): Promise<PaymentMethod | null> => {
      const info = (await sdk.models.billing.getBillingInfo(orgId)) as PaymentMethod;
      return info && typeof info === 'object' && Object.keys(info).length > 0 && info.type ? info : null;
    },
  });
}

export function useInvoices(orgId: number) {
  return useQuery({ queryKey: key(orgId, 'invoices'), queryFn: () => sdk.models.billing.getInvoices(orgId) });
}

export function useUsage(orgId: number) {
  return useQuery({
    queryKey: key(orgId, 'usage'),
    queryFn: async () => {
      const { body } = await sdk.request.send<BillingUsage>({ method: 'GET', baseUrl: window.location.origin, url: `/billing/v1/account/${orgId}/usage` });
      return body;
    },
  });
}

/** Spec 3 §8: an account the server does not find (404) is no account (null). */
export function useBillingAccount(orgId: number) {
  return useQuery({
    queryKey: key(orgId, 'account'),
    queryFn: async () => {
      try {
        return (await sdk.models.billing.getAccount(orgId)) as { email?: string | null; cc_emails?: string[] | null; account_state?: string };
      } catch (err) {
        if (errorStatus(err) === 404) return null;
        throw err;
      }
    },
  });
}

/** The catalogue's plans with what they include and sell (spec 3 §7: cached 1 hour). */
export function useCatalogue() {
  return useQuery({
    queryKey: ['billing', 'catalogue'],
    staleTime: 60 * 60 * 1000,
    queryFn: async () => {
      const rows = (await sdk.pine.get({
        resource: 'plan',
        options: {
          $select: ['title', 'billing_code', 'monthly_price', 'annual_price', 'can_self_serve', 'is_legacy', 'is_valid_from__date', 'is_valid_until__date', 'support_tier', 'description'],
          $expand: {
            plan_feature: { $select: ['quantity'], $expand: { feature: { $select: ['slug'] } } },
            plan_addon: { $select: ['base_price'], $expand: { feature: { $select: ['slug'] } } },
          },
          $orderby: [{ position: 'asc' }, { id: 'asc' }],
        },
      } as never)) as unknown as PlanRow[];
      return plansFromRows(rows);
    },
  });
}

/** The organization's devices (the free plan's allowance, spec 3 §4). */
export function useOrganizationDeviceCount(orgId: number) {
  return useQuery({
    queryKey: key(orgId, 'device-count'),
    queryFn: () =>
      sdk.pine.get({
        resource: 'device',
        options: { $count: { $filter: { belongs_to__application: { $any: { $alias: 'a', $expr: { a: { organization: orgId } } } } } } },
      } as never) as unknown as Promise<number>,
  });
}

function useInvalidate(orgId: number) {
  const queryClient = useQueryClient();
  return (...parts: string[]) => Promise.all(parts.map((part) => queryClient.invalidateQueries({ queryKey: key(orgId, part) })));
}

/** Spec 3 §4: after a change the plan and invoices reload, and usage unless the target is free. */
export function useChangePlan(orgId: number) {
  const invalidate = useInvalidate(orgId);
  return useMutation({
    mutationFn: (input: { tier: string; cycle: BillingCycle; planChangeReason?: string }) => sdk.models.billing.changePlan(orgId, input),
    onSuccess: (_r, input) => invalidate('plan', 'invoices', 'account', ...(input.tier === 'free' ? [] : ['usage'])),
  });
}

/** `PATCH …/info`: the manual provider's `{ token_type: 'manual', …address }`, or a finished card setup. */
export function useUpdateBillingInfo(orgId: number) {
  const invalidate = useInvalidate(orgId);
  return useMutation({
    mutationFn: (body: Record<string, string>) => sdk.models.billing.updateBillingInfo(orgId, body as never),
    onSuccess: () => invalidate('info', 'account'),
  });
}

export function useRemoveBillingInfo(orgId: number) {
  const invalidate = useInvalidate(orgId);
  return useMutation({ mutationFn: () => sdk.models.billing.removeBillingInfo(orgId), onSuccess: () => invalidate('info') });
}

export function useUpdateBillingAccount(orgId: number) {
  const invalidate = useInvalidate(orgId);
  return useMutation({
    mutationFn: (body: { email: string; cc_emails: string[] }) => sdk.models.billing.updateAccountInfo(orgId, body as never),
    onSuccess: () => invalidate('account'),
  });
}

/** Spec 3 §4 payment return flow step 1: the organization's company_name before payment setup. */
export function setCompanyName(orgId: number, companyName: string) {
  return sdk.pine.patch({ resource: 'organization', id: orgId, body: { company_name: companyName } as never });
}

export function createSetupIntent(orgId: number, captcha: string | null) {
  return sdk.models.billing.createSetupIntent({ organization: orgId, ...(captcha ? { 'g-recaptcha-response': captcha } : {}) });
}

/** Saves the invoice PDF (spec 3 §7 downloadInvoice returns a PDF file). */
export async function downloadInvoice(orgId: number, invoiceNumber: string) {
  const blob = (await sdk.models.billing.downloadInvoice(orgId, invoiceNumber)) as Blob;
  const url = URL.createObjectURL(blob);
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = `${invoiceNumber}.pdf`;
    document.body.appendChild(a);
    a.click();
    a.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
