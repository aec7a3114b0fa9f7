import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

/*
 * Two-factor calls (spec 1 §7; dialect §1.3). balena-sdk has /auth/totp/*; the recovery-code
 * endpoints it lacks go through `sdk.request`. Every call that answers a new session token
 * stores it in the SDK; the token's claims (two-factor state) are then read again.
 */

const send = async <T>(url: string, body: object): Promise<T> =>
  (await sdk.request.send({ method: 'POST', url, baseUrl: window.location.origin, body })).body as T;

/** The token changed: the guards and the panel read the two-factor state from its claims. */
async function reloadClaims(queryClient: QueryClient) {
  await queryClient.invalidateQueries({ queryKey: ['session-claims'] });
}

/** GET /auth/totp/setup: the otpauth:// URI (QR content); its `secret` is the pairing code. */
export async function getSetupKey(): Promise<{ uri: string; secret: string }> {
  const uri = String(await sdk.auth.twoFactor.getSetupKey());
  return { uri, secret: new URL(uri).searchParams.get('secret') ?? '' };
}

/** POST /auth/v1/2fa-recover/create: a new list of codes; earlier ones stop working. */
export const createRecoveryCodes = () => send<string[]>('/auth/v1/2fa-recover/create', {});

/** Setup: a code from the new secret turns two-factor on; then the first recovery codes. */
export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (code: string) => {
      await sdk.auth.twoFactor.enable(code);
      await reloadClaims(queryClient);
      return createRecoveryCodes();
    },
  });
}

export function useRegenerateRecoveryCodes() {
  return useMutation({ mutationFn: createRecoveryCodes });
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (password: string) => {
      await sdk.auth.twoFactor.disable(password);
      await reloadClaims(queryClient);
    },
  });
}

export type SecondFactor = { kind: 'totp'; code: string } | { kind: 'recovery'; code: string };

/** Login: a TOTP code (POST /auth/totp/verify) or a recovery code (POST /auth/v1/2fa-recover/verify). */
export function usePassSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (factor: SecondFactor) => {
      if (factor.kind === 'totp') {
        await sdk.auth.twoFactor.challenge(factor.code);
      } else {
        await sdk.auth.loginWithToken(await send<string>('/auth/v1/2fa-recover/verify', { code: factor.code }));
      }
      await reloadClaims(queryClient);
    },
  });
}
