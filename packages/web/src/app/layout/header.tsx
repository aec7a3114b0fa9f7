import { AppBar, Box, Link, Toolbar } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { HeaderStatusIndicator, HelpMenuButton } from '../../features/platform-news';
import { useAppearance } from '../../features/preferences/api/get-apps-enabled';
import { UserMenu } from './user-menu';
import { paths } from '../../lib/paths';

export function Header({ username }: { username: string }) {
  const { t } = useTranslation();
  // Appearance preferences (spec 1 §2): the user's header colour; stripes mark staging.
  const look = useAppearance();
  return (
    <AppBar
      position="fixed"
      elevation={0}
      data-testid="app-bar"
      sx={{
        zIndex: (theme) => theme.zIndex.drawer + 1,
        ...(look?.headerColor ? { bgcolor: look.headerColor } : {}),
        ...(look?.showsNavigationStripes ? { backgroundImage: 'repeating-linear-gradient(135deg,#fff2 0 12px,#0000 12px 24px)' } : {}),
      }}
    >
      <Toolbar>
        <Link component={RouterLink} to={paths.home()} color="inherit" underline="none" variant="h6" sx={{ fontWeight: 700 }}>
          {t('app.name')}
        </Link>
        <Box sx={{ flexGrow: 1 }} />
        <HeaderStatusIndicator />
        <HelpMenuButton />
        <UserMenu username={username} />
      </Toolbar>
    </AppBar>
  );
}
