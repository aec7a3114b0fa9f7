import { Box, Stack, Tab, Tabs } from '@mui/material';
import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import type { RunSensitive } from './api-key-dialog';
import { DetailsTab } from './details-tab';
import { paths } from '../../../lib/paths';

// Each other tab is its own chunk, loaded when it opens (the first-page budget).
const SshKeysTab = lazy(async () => ({ default: (await import('./ssh-keys-tab')).SshKeysTab }));
const AccessTokensTab = lazy(async () => ({ default: (await import('./access-tokens-tab')).AccessTokensTab }));
const ProfileTab = lazy(async () => ({ default: (await import('./profile-tab')).ProfileTab }));
const AppearanceTab = lazy(async () => ({ default: (await import('./appearance-tab')).AppearanceTab }));

/** Spec 1 §2: /preferences/{tab}, details by default. Appearance was /preferences/experimental (still redirected). */
export const PREFERENCE_TABS = ['details', 'sshkeys', 'access-tokens', 'profile', '2fa', 'appearance'] as const;
export type PreferenceTab = (typeof PREFERENCE_TABS)[number];
export const isPreferenceTab = (tab: string): tab is PreferenceTab => (PREFERENCE_TABS as readonly string[]).includes(tab);

interface Props {
  tab: PreferenceTab;
  /** Sections other features deliver (the route composes them): account security, account deletion, two-factor. */
  slots: { security: ReactNode; deleteAccount: ReactNode; twoFactor: ReactNode };
  /** Runs a sensitive action after identity re-verification when the session is older than 20 minutes. */
  runSensitive: RunSensitive;
}

export function PreferencesPage({ tab, slots, runSensitive }: Props) {
  const { t } = useTranslation();
  return (
    <Stack spacing={2} sx={{ maxWidth: 1100, mx: 'auto' }}>
      <PageHeader title={t('preferences.title')} />
      <Tabs value={tab} aria-label={t('preferences.tabs.label')} variant="scrollable" allowScrollButtonsMobile>
        {PREFERENCE_TABS.map((id) => (
          <Tab key={id} value={id} label={t(`preferences.tabs.${id}`)} component={RouterLink} to={id === 'details' ? paths.preferences() : paths.preferences(id)} />
        ))}
      </Tabs>
      <Box role="tabpanel" aria-label={t(`preferences.tabs.${tab}`)} sx={{ pt: 1 }}>
        <Suspense>
          {tab === 'details' && <DetailsTab security={slots.security} deleteAccount={slots.deleteAccount} />}
          {tab === 'sshkeys' && <SshKeysTab />}
          {tab === 'access-tokens' && <AccessTokensTab runSensitive={runSensitive} />}
          {tab === 'profile' && <ProfileTab />}
          {tab === '2fa' && slots.twoFactor}
          {tab === 'appearance' && <AppearanceTab />}
        </Suspense>
      </Box>
    </Stack>
  );
}
