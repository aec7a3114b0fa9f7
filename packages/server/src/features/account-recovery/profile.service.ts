import { emailVerificationState, profileProblems, type EmailVerificationState, type ProfileInput } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, UnauthorizedError } from '../../infra/errors.js';
import { findAccountState, updateProfile } from './account-recovery.repository.js';

export interface Profile {
  first_name: string;
  last_name: string;
  company: string;
  account_type: 'personal' | 'professional';
}

/** The profile step (spec 1 §2 /signup/profile, §5): all four fields required. */
export async function saveProfile(db: Db, userId: number, input: ProfileInput): Promise<Profile> {
  const problems = profileProblems(input);
  const first = Object.values(problems)[0];
  if (first) throw new BadRequestError(first);
  const profile: Profile = {
    first_name: String(input.first_name).trim(),
    last_name: String(input.last_name).trim(),
    company: String(input.company).trim(),
    account_type: input.account_type as Profile['account_type'],
  };
  await updateProfile(db, userId, profile);
  return profile;
}

export interface AccountState {
  email: string;
  is_verified: boolean;
  must_be_verified: boolean;
  /** Spec 1 §4: verified, pending (must verify) or missing (need not). */
  verification: EmailVerificationState;
  has_been_sent_verification_email: boolean;
  /** The profile step is done (all four fields set). */
  profile_complete: boolean;
}

export async function accountState(db: Db, userId: number, mustBeVerified: boolean): Promise<AccountState> {
  const u = await findAccountState(db, userId);
  if (!u) throw new UnauthorizedError('You have to log in');
  return {
    email: u.email,
    is_verified: u.is_verified,
    must_be_verified: mustBeVerified,
    verification: emailVerificationState({ is_verified: u.is_verified, must_be_verified: mustBeVerified }),
    has_been_sent_verification_email: u.has_been_sent_verification_email,
    profile_complete: Object.keys(profileProblems(u)).length === 0,
  };
}
