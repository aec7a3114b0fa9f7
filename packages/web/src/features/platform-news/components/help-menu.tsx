import { Divider, Menu, MenuItem } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useInstallConfig } from '../../../lib/dashboard-config';
import { paths } from '../../../lib/paths';
import '../i18n';
import { helpMenuLinks } from '../links';
import { openChangelog } from '../news-store';

/** The help menu's items (loaded on the button's first click; index.tsx). */
export default function HelpMenu({ id, anchor, labelledBy, onClose }: { id: string; anchor: HTMLElement | null; labelledBy: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { docsUrl, links } = useInstallConfig();
  return (
    <Menu
      id={id}
      anchorEl={anchor}
      open={!!anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ list: { 'aria-labelledby': labelledBy } }}
    >
      <MenuItem component={RouterLink} to={paths.support()} onClick={onClose}>
        {t('platform_news.contact_support')}
      </MenuItem>
      <Divider />
      {helpMenuLinks(docsUrl, links).map(({ key, href }) => (
        // Outside pages open in a new tab, without a handle on this one.
        <MenuItem key={key} component="a" href={href} target="_blank" rel="noopener noreferrer" onClick={onClose}>
          {t(`platform_news.${key}`)}
        </MenuItem>
      ))}
      <Divider />
      <MenuItem
        onClick={() => {
          onClose();
          openChangelog();
        }}
      >
        {t('platform_news.whats_new')}
      </MenuItem>
    </Menu>
  );
}
