import { CAPABILITIES } from '@flotilla/model';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { countedCreditBalance } from '../../../lib/billing';
import { errorStatus } from '../../../lib/errors';
import { pineGetOne } from '../../../lib/pine';
import { sdk } from '../../../lib/sdk';

/**
 * The credits page's data (spec 3 §7): the organization's credit bundles (balena-sdk
 * `models.creditBundle`), its credit notification (`organization_credit_notification` through
 * pine), the credits feature and whether a payment method is set up (`getBillingInfo`).
 */
const creditsKey = (organizationId: number) => ['organization', organizationId, 'billing', 'credits'] as const;

export interface CreditBundleRow {
  id: number;
  created_at: string;
  original_quantity: number;
  payment_status: string;
  total_balance: number;
  available_balance: number;
  expires_on__date: string;
  total_cost: number;
  username: string | null;
}

export async function getCreditBundles(organizationId: number): Promise<CreditBundleRow[]> {
  const rows = await sdk.models.creditBundle.getAllByOrg(organizationId, {
    $select: ['id', 'created_at', 'original_quantity', 'payment_status', 'total_balance', 'available_balance', 'expires_on__date', 'total_cost'],
    $expand: { is_created_by__user: { $select: ['username'] } },
    $orderby: { created_at: 'desc' },
  });
  return rows.map((r) => ({
    id: r.id,
    created_at: r.created_at,
    original_quantity: r.original_quantity,
    payment_status: r.payment_status,
    total_balance: r.total_balance,
    available_balance: r.available_balance,
    expires_on__date: r.expires_on__date,
    total_cost: r.total_cost,
    username: r.is_created_by__user[0]?.username ?? null,
  }));
}

export function useCreditBundles(organizationId: number) {
  return useQuery(
    queryOptions({
      queryKey: [...creditsKey(organizationId), 'bundles'],
      queryFn: () => getCreditBundles(organizationId),
      select: (bundles) => ({ bundles, balance: countedCreditBalance(bundles, new Date()) }),
    }),
  );
}

/** The `credits:device` feature's id (what bundles and notifications are for). */
export function useCreditsFeature() {
  return useQuery({
    queryKey: ['billing', 'feature', CAPABILITIES.credits],
    queryFn: async () => (await pineGetOne('feature', { slug: CAPABILITIES.credits }, { $select: ['id'] }))?.id ?? null,
    staleTime: Infinity,
  });
}

/** Whether the organization has a payment method (getBillingInfo answers `{}` without one). */
export function useHasPaymentMethod(organizationId: number) {
  return useQuery({
    queryKey: [...creditsKey(organizationId), 'has-payment-method'],
    queryFn: async () => {
      try {
        const info = await sdk.models.billing.getBillingInfo(organizationId);
        return typeof info.type === 'string';
      } catch (err) {
        if (errorStatus(err) === 404) return false;
        throw err;
      }
    },
  });
}

export interface CreditNotification {
  id: number;
  threshold: number;
}

export function useCreditNotification(organizationId: number) {
  return useQuery({
    queryKey: [...creditsKey(organizationId), 'notification'],
    queryFn: async (): Promise<CreditNotification | null> => {
      const [row] = await sdk.pine.get({
        resource: 'organization_credit_notification',
        options: { $select: ['id', 'is_sent_when_below__threshold'], $filter: { organization: organizationId }, $top: 1 },
      });
      return row ? { id: row.id, threshold: row.is_sent_when_below__threshold } : null;
    },
  });
}

/** Spec 3 §4: the toggle creates the record (on) or deletes it (off); Apply changes the threshold. */
export function useSetCreditNotification(organizationId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (
      change: { kind: 'create'; featureId: number; threshold: number } | { kind: 'delete'; id: number } | { kind: 'update'; id: number; threshold: number },
    ) => {
      if (change.kind === 'create') {
        await sdk.pine.post({
          resource: 'organization_credit_notification',
          body: { organization: organizationId, owns_credit_notification_for__feature: change.featureId, is_sent_when_below__threshold: change.threshold },
        });
      } else if (change.kind === 'delete') {
        await sdk.pine.delete({ resource: 'organization_credit_notification', id: change.id });
      } else {
        await sdk.pine.patch({ resource: 'organization_credit_notification', id: change.id, body: { is_sent_when_below__threshold: change.threshold } });
      }
    },
    onSettled: () => client.invalidateQueries({ queryKey: creditsKey(organizationId) }),
  });
}

export interface PurchaseResult {
  payment_status: string;
  error_message: string | null;
}

/** Spec 3 §7: create (organization, feature, quantity) answers payment_status and error_message. */
export function usePurchaseCredits(organizationId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ featureId, quantity }: { featureId: number; quantity: number }): Promise<PurchaseResult> => {
      const bundle = await sdk.models.creditBundle.create(organizationId, featureId, quantity);
      return { payment_status: bundle.payment_status, error_message: bundle.error_message };
    },
    onSettled: () => client.invalidateQueries({ queryKey: ['organization', organizationId, 'billing'] }),
  });
}
