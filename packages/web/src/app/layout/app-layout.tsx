import { Box, Toolbar } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { useSession } from '../../lib/get-session';
import { useSessionClaims } from '../../lib/get-session-claims';
import { isPlatformAdministrator, isProviderStaff } from '../../lib/session-claims';
import { PlatformNewsBanners } from '../../features/platform-news';
import { Header } from './header';
import { Sidebar } from './sidebar';
import { StaffBanners } from './staff-banners';

const SIDEBAR_STATE_KEY = 'flotilla.sidebarOpen';

/**
 * The signed-in frame: header, sidebar and the page, on every signed-in page (the
 * preferences and not-found pages included: issue 11). Rendered only for a signed-in user;
 * `children` replaces the route outlet (the not-found page).
 */
export function AppLayout({ children }: { children?: ReactNode }) {
  const { data: user } = useSession();
  const claims = useSessionClaims(user?.id);
  const [open, setOpen] = useState(() => localStorage.getItem(SIDEBAR_STATE_KEY) !== 'false');
  const toggle = () =>
    setOpen((was) => {
      localStorage.setItem(SIDEBAR_STATE_KEY, String(!was));
      return !was;
    });

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <Header username={user?.username ?? ''} />
      <Sidebar open={open} onToggle={toggle} isStaff={isProviderStaff(claims)} />
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, p: 3 }}>
        <Toolbar />
        <StaffBanners
          username={user?.username ?? ''}
          isPlatformAdministrator={isPlatformAdministrator(claims)}
          isLoginAs={claims?.actedBy != null}
        />
        <PlatformNewsBanners userId={user?.id} />
        {children ?? <Outlet />}
      </Box>
    </Box>
  );
}
