import { Box, Button, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLogout } from '../../features/auth/api/logout';
import { useNotify } from '../../lib/notify';

interface StaffBannersProps {
  username: string;
  /** The session token carries admin.home (a platform administrator's own account). */
  isPlatformAdministrator: boolean;
  /** The token's actualUser differs from its id: an administrator logged in as this user. */
  isLoginAs: boolean;
}

// Plain boxes rather than MUI's Alert: the layout is on every first page (350 KB budget).
function Banner({ tone, children }: { tone: 'warning' | 'info'; children: ReactNode }) {
  return (
    <Box
      role="status"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 2,
        mb: 2,
        px: 2,
        py: 1,
        borderRadius: 1,
        borderLeft: 4,
        borderColor: `${tone}.main`,
        bgcolor: tone === 'warning' ? '#fff4e5' : '#e5f6fd',
        color: 'text.primary',
      }}
    >
      {children}
    </Box>
  );
}

/** Spec 1 §6: the admin-account banner, and the banner of an administrator's login-as session. */
export function StaffBanners({ username, isPlatformAdministrator, isLoginAs }: StaffBannersProps) {
  const { t } = useTranslation();
  const logout = useLogout();
  const notify = useNotify();
  return (
    <>
      {isPlatformAdministrator && (
        <Banner tone="warning">
          <Typography variant="body2">{t('admin.banner.admin_account')}</Typography>
        </Banner>
      )}
      {isLoginAs && (
        <Banner tone="info">
          <Typography variant="body2" sx={{ flexGrow: 1 }}>
            {t('admin.banner.login_as', { username })}
          </Typography>
          <Button size="small" color="inherit" variant="outlined" onClick={() => logout.mutate(undefined, { onError: notify.error })}>
            {t('header.sign_out')}
          </Button>
        </Banner>
      )}
    </>
  );
}
