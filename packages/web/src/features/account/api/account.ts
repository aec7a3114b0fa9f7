import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { pineGetOne } from '../../../lib/pine';
import type { AccountDeletionPreflight } from '@flotilla/model';

const baseUrl = () => window.location.origin;

/** The signed-in user's own account fields this feature needs. */
export interface OwnAccount {
  id: number;
  email: string;
  has_password_set: boolean;
}

export const ownAccountQueryKey = ['account', 'own'] as const;

export async function getOwnAccount(): Promise<OwnAccount> {
  const { id } = await sdk.auth.getUserInfo();
  const user = await pineGetOne('user', id, { $select: ['id', 'email', 'has_password_set'] });
  if (!user) throw new Error('User not found');
  // email is private (null to others); the owner always reads their own.
  return { ...user, email: user.email ?? '' };
}

export function useOwnAccount() {
  return useQuery(queryOptions({ queryKey: ownAccountQueryKey, queryFn: getOwnAccount }));
}

/**
 * PATCH /user/password {currentPassword, password} (spec 1 §7). The answer is a fresh token
 * for this session: the server signs out every other session of the user.
 */
export async function changePassword(input: { currentPassword?: string; password: string }): Promise<void> {
  const res = await sdk.request.send<string>({ method: 'PATCH', url: '/user/password', baseUrl: baseUrl(), body: input });
  await sdk.auth.loginWithToken(String(res.body).trim());
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changePassword, onSuccess: () => queryClient.invalidateQueries({ queryKey: ownAccountQueryKey }) });
}

/** PATCH /user/email {email, password} (spec 1 §7). */
export async function changeEmail(input: { email: string; password: string }): Promise<void> {
  await sdk.request.send({ method: 'PATCH', url: '/user/email', baseUrl: baseUrl(), body: input });
}

export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeEmail,
    // The header and the session show the email too.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

export type { AccountDeletionPreflight, SingleAdminOrganization } from '@flotilla/model';

/** GET /user/v1/account-deletion/preflight (spec 1 §7: the path is not shown). */
export async function getAccountDeletionPreflight(): Promise<AccountDeletionPreflight> {
  const res = await sdk.request.send<AccountDeletionPreflight>({ method: 'GET', url: '/user/v1/account-deletion/preflight', baseUrl: baseUrl() });
  return res.body;
}

export function useAccountDeletionPreflight() {
  return useQuery({ queryKey: ['account', 'deletion-preflight'], queryFn: getAccountDeletionPreflight });
}

/** DELETE /v7/organization({id}), as the organizations pages do. */
export async function deleteOrganization(id: number): Promise<void> {
  await sdk.pine.delete({ resource: 'organization', id });
}

/** DELETE /user/v1/account {password}. */
export async function deleteOwnAccount(password: string): Promise<void> {
  await sdk.request.send({ method: 'DELETE', url: '/user/v1/account', baseUrl: baseUrl(), body: { password } });
}
