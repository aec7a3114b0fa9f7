import { AppBar, Box, Link, Toolbar } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { UserMenu } from './user-menu';

export function Header({ username }: { username: string }) {
  const { t } = useTranslation();
  return (
    <AppBar position="fixed" elevation={0} sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
      <Toolbar>
        <Link component={RouterLink} to="/" color="inherit" underline="none" variant="h6" sx={{ fontWeight: 700 }}>
          {t('app.name')}
        </Link>
        <Box sx={{ flexGrow: 1 }} />
        <UserMenu username={username} />
      </Toolbar>
    </AppBar>
  );
}
