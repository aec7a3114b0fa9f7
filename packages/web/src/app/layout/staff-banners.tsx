import { Button, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useLogout } from '../../features/auth/api/logout';
import { useNotify } from '../../lib/notify';
import { PlainBanner } from '../../components/plain-banner';

interface StaffBannersProps {
  username: string;
  /** The session token carries admin.home (a platform administrator's own account). */
  isPlatformAdministrator: boolean;
  /** The token's actualUser differs from its id: an administrator logged in as this user. */
  isLoginAs: boolean;
}

/** Spec 1 §6: the admin-account banner, and the banner of an administrator's login-as session. */
export function StaffBanners({ username, isPlatformAdministrator, isLoginAs }: StaffBannersProps) {
  const { t } = useTranslation();
  const logout = useLogout();
  const notify = useNotify();
  return (
    <>
      {isPlatformAdministrator && (
        <PlainBanner tone="warning">
          <Typography variant="body2">{t('admin.banner.admin_account')}</Typography>
        </PlainBanner>
      )}
      {isLoginAs && (
        <PlainBanner tone="info">
          <Typography variant="body2" sx={{ flexGrow: 1 }}>
            {t('admin.banner.login_as', { username })}
          </Typography>
          <Button size="small" color="inherit" variant="outlined" onClick={() => logout.mutate(undefined, { onError: notify.error })}>
            {t('header.sign_out')}
          </Button>
        </PlainBanner>
      )}
    </>
  );
}
