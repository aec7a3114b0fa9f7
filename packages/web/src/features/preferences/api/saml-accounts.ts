import { useQuery } from '@tanstack/react-query';
import { pineGet } from '../../../lib/pine';

export interface SamlAccountRow {
  id: number;
  remote_id: string;
  display_name: string | null;
  /** The identity provider's SSO identifier; null when the user may not read the provider (only its organizations' administrators do). */
  provider: string | null;
}

/**
 * Spec 1 §7 "GET saml_account by user": the caller's SAML accounts with their identity
 * provider's SSO identifier. A SAML user creates no API keys (spec 1 §6).
 */
export function useSamlAccounts(userId: number | undefined) {
  return useQuery({
    queryKey: ['preferences', 'saml-accounts', userId ?? null],
    queryFn: async (): Promise<SamlAccountRow[]> => {
      const rows = await pineGet('saml_account', {
        $select: ['id', 'remote_id', 'display_name'],
        $expand: { was_generated_by__identity_provider: { $select: ['sso_identifier'] } },
        $filter: { belongs_to__user: userId },
        $orderby: { id: 'asc' },
      });
      return rows.map((row) => ({
        id: row.id,
        remote_id: row.remote_id,
        display_name: row.display_name,
        provider: row.was_generated_by__identity_provider[0]?.sso_identifier ?? null,
      }));
    },
    enabled: userId !== undefined,
  });
}
