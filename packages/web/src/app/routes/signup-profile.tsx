import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AuthCard } from '../../features/auth/components/auth-card';
import { ProfileForm } from '../../features/signup-profile/components/profile-form';
import { accountStateQueryKey } from '../../features/verify-email/api/account-state';
import '../../features/signup-profile/i18n';
import { paths } from '../../lib/paths';

/** /signup/profile (spec 1 §2: the profile step after sign-up; login required, no sidebar). */
export function SignupProfileRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <AuthCard title={t('signupProfile.title')}>
      <ProfileForm
        onSaved={() => {
          void queryClient.invalidateQueries({ queryKey: accountStateQueryKey });
          void navigate(paths.home(), { replace: true });
        }}
      />
    </AuthCard>
  );
}
