import { HEADER_USERNAME_MAX_CHARS } from '@flotilla/model';
import { Button, ListItemIcon, Menu, MenuItem } from '@mui/material';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { AccountIcon, KeyIcon, LogoutIcon } from '../../components/icons';
import { useLogout } from '../../features/auth/api/logout';
import { useInstallConfig } from '../../lib/dashboard-config';
import { useNotify } from '../../lib/notify';
import { paths } from '../../lib/paths';

/** Spec 1 §9: the header shows at most 20 characters of the username. */
export function truncateUsername(username: string) {
  return username.slice(0, HEADER_USERNAME_MAX_CHARS);
}

export function UserMenu({ username }: { username: string }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const logout = useLogout();
  const { saml } = useInstallConfig();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const buttonId = useId();

  return (
    <>
      <Button
        id={buttonId}
        color="inherit"
        startIcon={<AccountIcon />}
        title={username}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? true : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ textTransform: 'none' }}
      >
        <span data-testid="header-username">{truncateUsername(username)}</span>
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={!!anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ list: { 'aria-labelledby': buttonId } }}
      >
        <MenuItem component={RouterLink} to={paths.preferences()} onClick={() => setAnchor(null)}>
          <ListItemIcon>
            <AccountIcon fontSize="small" />
          </ListItemIcon>
          {t('header.preferences')}
        </MenuItem>
        {/* Where balena puts it: single sign-on is set up from the account menu (issue 20). */}
        {saml && (
          <MenuItem component={RouterLink} to={paths.identityProvider()} onClick={() => setAnchor(null)}>
            <ListItemIcon>
              <KeyIcon fontSize="small" />
            </ListItemIcon>
            {t('header.identity_provider')}
          </MenuItem>
        )}
        <MenuItem
          onClick={() => {
            setAnchor(null);
            logout.mutate(undefined, { onError: notify.error });
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          {t('header.sign_out')}
        </MenuItem>
      </Menu>
    </>
  );
}
