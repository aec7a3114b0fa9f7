import { useMutation } from '@tanstack/react-query';
import type { ProfileAccountType } from '@flotilla/model';
import { sdk } from '../../../lib/sdk';

export interface ProfileInput {
  first_name: string;
  last_name: string;
  company: string;
  account_type: ProfileAccountType;
}

/** `PATCH /user/profile` (spec 1 §7): the server checks every field (spec 1 §5). */
export async function saveProfile(input: ProfileInput): Promise<ProfileInput> {
  const { body } = await sdk.request.send<ProfileInput>({ method: 'PATCH', baseUrl: window.location.origin, url: '/user/profile', body: input });
  return body;
}

export function useSaveProfile() {
  return useMutation({ mutationFn: saveProfile });
}
