import { API_KEY_LIST_REFETCH_MS } from '@flotilla/model';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

export interface UserApiKey {
  id: number;
  name: string;
  description: string | null;
  created_at: string;
  expiry_date: string | null;
}

export type ApiKeySortField = 'name' | 'description' | 'created_at' | 'expiry_date';
export interface ApiKeyPage {
  page: number;
  pageSize: number;
  sort: { field: ApiKeySortField; direction: 'asc' | 'desc' };
}

const apiKeysKey = ['preferences', 'api-keys'] as const;

/**
 * One page of the caller's named API keys (spec 1 §7: server-side pagination, `$count`,
 * `$orderby`, refetched every 6 s), with the total.
 */
export function useUserApiKeys({ page, pageSize, sort }: ApiKeyPage) {
  return useQuery({
    queryKey: [...apiKeysKey, page, pageSize, sort.field, sort.direction],
    queryFn: async () => {
      const actor = await sdk.auth.getActorId();
      const [rows, count] = await Promise.all([
        sdk.models.apiKey.getAllNamedUserApiKeys({
          $select: ['id', 'name', 'description', 'created_at', 'expiry_date'],
          $orderby: [{ [sort.field]: sort.direction }, { id: 'asc' }],
          $top: pageSize,
          $skip: page * pageSize,
        }),
        sdk.pine.get({ resource: 'api_key', options: { $count: { $filter: { is_of__actor: actor, name: { $ne: null } } } } }),
      ]);
      return { rows: rows as unknown as UserApiKey[], total: count };
    },
    placeholderData: keepPreviousData,
    refetchInterval: API_KEY_LIST_REFETCH_MS,
  });
}

export interface ApiKeyInput {
  name: string;
  description: string | null;
  /** ISO date, null for never; undefined (edit only) keeps the current expiry. */
  expiryDate: string | null | undefined;
}

/**
 * Creates a named key and answers it (shown once). `sdk.models.apiKey.create` reports every
 * failure as "not logged in", so the same call goes through `sdk.request` to keep the
 * server's message (a past expiry, re-verification needed).
 */
export function useCreateUserApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ApiKeyInput) => {
      const { body } = await sdk.request.send<string>({
        method: 'POST',
        baseUrl: window.location.origin,
        url: '/api-key/user/full',
        body: { name: input.name, description: input.description, expiryDate: input.expiryDate ?? null },
      });
      return body;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }),
  });
}

export function useUpdateUserApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: ApiKeyInput }) =>
      sdk.models.apiKey.update(id, {
        name: input.name,
        description: input.description,
        ...(input.expiryDate !== undefined && { expiryDate: input.expiryDate }),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }),
  });
}

export function useRevokeUserApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => sdk.models.apiKey.revoke(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }),
  });
}

/** The current session token (spec 1 §2 access tokens), read from the SDK's storage. */
export function useSessionToken() {
  return useQuery({ queryKey: ['preferences', 'session-token'], queryFn: () => sdk.auth.getToken(), staleTime: 60_000 });
}
