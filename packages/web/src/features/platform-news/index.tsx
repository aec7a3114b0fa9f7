import { IconButton } from '@mui/material';
import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HelpIcon } from '../../components/icons';

// Everything but the header's button loads as its own chunks, after the page: the signed-in
// layout is on every first page (350 kB budget).
const HelpMenu = lazy(() => import('./components/help-menu'));
const StatusIndicator = lazy(() => import('./components/status-indicator'));
const PlatformNewsPanel = lazy(() => import('./components/platform-news-panel'));

/**
 * The header's help and support menu (spec 3 §2 Support, issue 19): contact support, the
 * operator's help links, the status page and "What's new". Its items load on first open.
 */
export function HelpMenuButton() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [wanted, setWanted] = useState(false);
  const menuId = useId();
  const buttonId = useId();
  return (
    <>
      <IconButton
        id={buttonId}
        color="inherit"
        aria-label={t('header.help_menu')}
        title={t('header.help_menu')}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? true : undefined}
        onClick={(e) => {
          setWanted(true);
          setAnchor(e.currentTarget);
        }}
      >
        <HelpIcon />
      </IconButton>
      {wanted && (
        <Suspense fallback={null}>
          <HelpMenu id={menuId} anchor={anchor} labelledBy={buttonId} onClose={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}

/** The status page's indicator in the header, once the first check has answered (spec 3 §4). */
export function HeaderStatusIndicator() {
  return (
    <Suspense fallback={null}>
      <StatusIndicator />
    </Suspense>
  );
}

/**
 * The platform's banners for a signed-in user (spec 3 §4 Other banners): a new dashboard
 * version (refresh), status-page incidents, the announcement; and the changelog dialog.
 */
export function PlatformNewsBanners({ userId }: { userId: number | undefined }) {
  if (userId === undefined) return null;
  return (
    <Suspense fallback={null}>
      <PlatformNewsPanel userId={userId} />
    </Suspense>
  );
}
