import { Box, Toolbar } from '@mui/material';
import { useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useSession } from '../../features/auth/api/get-session';
import { useSessionClaims } from '../../features/auth/api/get-session-claims';
import { isPlatformAdministrator, isProviderStaff } from '../../features/auth/session-claims';
import { Header } from './header';
import { Sidebar } from './sidebar';
import { StaffBanners } from './staff-banners';

const SIDEBAR_STATE_KEY = 'flotilla.sidebarOpen';

/** The signed-in frame: header, sidebar and the page. Rendered only under RequireAuth. */
export function AppLayout() {
  const { data: user } = useSession();
  const claims = useSessionClaims(user?.id);
  // Spec 1 §2: no sidebar on the preferences pages.
  const showSidebar = !useLocation().pathname.startsWith('/preferences');
  const [open, setOpen] = useState(() => localStorage.getItem(SIDEBAR_STATE_KEY) !== 'false');
  const toggle = () =>
    setOpen((was) => {
      localStorage.setItem(SIDEBAR_STATE_KEY, String(!was));
      return !was;
    });

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <Header username={user?.username ?? ''} />
      {showSidebar && <Sidebar open={open} onToggle={toggle} isStaff={isProviderStaff(claims)} />}
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, p: 3 }}>
        <Toolbar />
        <StaffBanners
          username={user?.username ?? ''}
          isPlatformAdministrator={isPlatformAdministrator(claims)}
          isLoginAs={claims?.actedBy != null}
        />
        <Outlet />
      </Box>
    </Box>
  );
}
