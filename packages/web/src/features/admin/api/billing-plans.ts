import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

/** A plan as `GET /admin/v1/billing/plans` answers it (issue 18; prices in cents). */
export interface AdminBillingPlan {
  id: number;
  billing_code: string;
  title: string;
  monthly_price: number;
  annual_price: number;
  can_self_serve: boolean;
  is_legacy: boolean;
  is_valid_from__date: string | null;
  is_valid_until__date: string | null;
  support_tier: string;
  position: number;
  /** Whether users can choose it now (spec 3 §5: not legacy, priced, within its dates). */
  is_self_serve: boolean;
}

export type BillingPlanEdit = Partial<Pick<AdminBillingPlan, 'title' | 'monthly_price' | 'annual_price' | 'can_self_serve' | 'is_valid_from__date' | 'is_valid_until__date'>>;

export const billingPlansQueryKey = ['admin', 'billing-plans'] as const;

export function useBillingPlans() {
  return useQuery({
    queryKey: billingPlansQueryKey,
    queryFn: async () => (await sdk.request.send<AdminBillingPlan[]>({ method: 'GET', url: '/admin/v1/billing/plans', baseUrl: window.location.origin })).body,
  });
}

export function useEditBillingPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, edit }: { id: number; edit: BillingPlanEdit }) =>
      (await sdk.request.send<AdminBillingPlan>({ method: 'PATCH', url: `/admin/v1/billing/plans/${id}`, baseUrl: window.location.origin, body: edit })).body,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingPlansQueryKey }),
  });
}
