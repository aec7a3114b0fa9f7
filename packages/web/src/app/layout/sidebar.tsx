import { SIDEBAR_WIDTH_COLLAPSED, SIDEBAR_WIDTH_OPEN } from '@flotilla/model';
import { Box, Divider, Drawer, IconButton, List, ListItem, ListItemButton, ListItemIcon, ListItemText, Toolbar } from '@mui/material';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { AdminIcon, AppsIcon, BlockIcon, ChevronLeftIcon, ChevronRightIcon, FleetIcon, OrganizationIcon } from '../../components/icons';
import { useAppsEnabled } from '../../features/preferences/api/get-apps-enabled';
import { paths } from '../../lib/paths';

export const SIDEBAR_ID = 'app-sidebar';

interface NavItem {
  to: string;
  labelKey: 'nav.fleets' | 'nav.apps' | 'nav.blocks' | 'nav.organizations' | 'nav.admin';
  Icon: ComponentType;
  /** Spec 1 line 7: the Apps section carries an Alpha badge. */
  badge?: 'nav.alpha';
}

const FLEETS_ITEM: NavItem = { to: paths.applications(), labelKey: 'nav.fleets', Icon: FleetIcon };
// Spec 1 line 7: Apps only with the apps flag.
const APPS_ITEM: NavItem = { to: paths.applications('app'), labelKey: 'nav.apps', Icon: AppsIcon, badge: 'nav.alpha' };
const OTHER_NAV_ITEMS: NavItem[] = [
  { to: paths.applications('block'), labelKey: 'nav.blocks', Icon: BlockIcon },
  { to: paths.organizations(), labelKey: 'nav.organizations', Icon: OrganizationIcon },
];

// Spec 3 §6: provider staff (support agents and platform administrators) get an admin link.
const STAFF_NAV_ITEMS: NavItem[] = [{ to: paths.admin(), labelKey: 'nav.admin', Icon: AdminIcon }];

/** Spec 1 §9: 220 px open, 56 px collapsed (icons only, names in tooltips). */
export function Sidebar({ open, onToggle, isStaff }: { open: boolean; onToggle: () => void; isStaff: boolean }) {
  const { t } = useTranslation();
  const width = open ? SIDEBAR_WIDTH_OPEN : SIDEBAR_WIDTH_COLLAPSED;
  const appsEnabled = useAppsEnabled() === true;
  const items = [FLEETS_ITEM, ...(appsEnabled ? [APPS_ITEM] : []), ...OTHER_NAV_ITEMS, ...(isStaff ? STAFF_NAV_ITEMS : [])];
  return (
    <Drawer
      variant="permanent"
      id={SIDEBAR_ID}
      data-state={open ? 'open' : 'collapsed'}
      sx={{
        width,
        flexShrink: 0,
        transition: (theme) => theme.transitions.create('width'),
        '& .MuiDrawer-paper': { width, overflowX: 'hidden', boxSizing: 'border-box', transition: (theme) => theme.transitions.create('width') },
      }}
    >
      <Toolbar />
      <Box component="nav" aria-label={t('nav.main')} sx={{ flexGrow: 1 }}>
        <List>
          {items.map(({ to, labelKey, Icon, badge }) => {
            // The badge is part of the accessible name ("Apps Alpha"), collapsed or not.
            const name = badge ? `${t(labelKey)} ${t(badge)}` : t(labelKey);
            // Collapsed: the name moves to aria-label and a native tooltip (MUI's Tooltip
            // would add Popper to the first page's JavaScript).
            // Each link sits in its own <li> (a <ul> holds only list items).
            return (
              <ListItem key={to} disablePadding>
                <ListItemButton
                  component={NavLink}
                  to={to}
                  aria-label={open ? undefined : name}
                  title={open ? undefined : name}
                  sx={{ minHeight: 44, px: 2, '&.active': { bgcolor: 'action.selected' } }}
                >
                  <ListItemIcon sx={{ minWidth: 0, mr: open ? 2 : 0 }}>
                    <Icon />
                  </ListItemIcon>
                  {open && <ListItemText primary={t(labelKey)} />}
                  {open && badge && (
                    <Box
                      component="span"
                      sx={{ ml: 1, px: 0.75, borderRadius: 1, fontSize: 11, fontWeight: 600, lineHeight: '18px', bgcolor: 'warning.main', color: 'warning.contrastText' }}
                    >
                      {t(badge)}
                    </Box>
                  )}
                </ListItemButton>
              </ListItem>
            );
          })}
        </List>
      </Box>
      <Divider />
      <Box sx={{ display: 'flex', justifyContent: open ? 'flex-end' : 'center', p: 1 }}>
        <IconButton
          onClick={onToggle}
          aria-label={open ? t('nav.collapse_sidebar') : t('nav.expand_sidebar')}
          aria-expanded={open}
          aria-controls={SIDEBAR_ID}
        >
          {open ? <ChevronLeftIcon /> : <ChevronRightIcon />}
        </IconButton>
      </Box>
    </Drawer>
  );
}
