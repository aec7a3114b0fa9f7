import { Button, Link, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PlainBanner } from '../../../components/plain-banner';
import { useInstallConfig } from '../../../lib/dashboard-config';
import { readBuildTime, readChangelog, readStatus, readUserCreatedAt } from '../api/news-api';
import { changelogDecision, changelogStorageKey, latestMajor, parseStoredMajor } from '../changelog';
import '../i18n';
import { hasIncident, setNews, useNews } from '../news-store';
import { announcementDismissalKey, pollStatus, scheduleAnnouncement, watchBuildTime } from '../timing';

const ChangelogDialog = lazy(() => import('./changelog-dialog'));

const storage = {
  get: (key: string) => {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set: (key: string, value: string) => {
    try {
      localStorage.setItem(key, value);
    } catch {
      // storage full or refused: remembered for this page only
    }
  },
};

const changelogQuery = { queryKey: ['platform-news', 'changelog'], queryFn: readChangelog, staleTime: Infinity, retry: 1 } as const;

/** The version check, status poll, announcement and changelog of the signed-in layout (index.tsx). */
export default function PlatformNewsPanel({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const { announcement, links } = useInstallConfig();
  const status = useNews((s) => s.status);
  const changelogOpen = useNews((s) => s.changelogOpen);

  // Spec 3 §4/§9: a new build served → the refresh banner until the page reloads.
  const [newBuild, setNewBuild] = useState(false);
  useEffect(() => watchBuildTime({ read: readBuildTime, onNewBuild: () => setNewBuild(true), focus: window }), []);

  // Spec 3 §4: the status indicator after 3 s, then the summary every 60 s; nothing when no feed is configured.
  useEffect(() => {
    const stop = pollStatus({
      read: readStatus,
      onStatus: (summary) => {
        if (summary === undefined) return; // our own server did not answer: keep what is shown
        setNews({ status: summary });
        if (summary === null) stop();
      },
    });
    return stop;
  }, []);

  // Spec 3 §4: the announcement 4 s after load, inside its window, until dismissed.
  const [announcing, setAnnouncing] = useState(false);
  const dismissalKey = announcement ? announcementDismissalKey(announcement) : undefined;
  const [dismissed, setDismissed] = useState(() => (dismissalKey ? storage.get(dismissalKey) === 'true' : false));
  useEffect(() => {
    if (!announcement) return undefined;
    return scheduleAnnouncement({ announcement, onChange: setAnnouncing });
  }, [announcement]);

  // The changelog dialog opens once per major version (changelog.ts).
  const changelog = useQuery(changelogQuery);
  const latest = changelog.data === undefined ? undefined : latestMajor(changelog.data);
  const storageKey = changelogStorageKey(userId);
  const [stored, setStored] = useState(() => parseStoredMajor(storage.get(storageKey)));
  const createdAt = useQuery({
    queryKey: ['platform-news', 'user-created', userId],
    queryFn: () => readUserCreatedAt(userId),
    enabled: stored === undefined && latest !== undefined,
    staleTime: Infinity,
    retry: false,
  });
  const [decided, setDecided] = useState(false);
  useEffect(() => {
    if (decided) return;
    const decision = changelogDecision({ stored, latest, createdAt: createdAt.data, now: Date.now() });
    if (decision === 'nothing') return;
    setDecided(true);
    if (decision === 'remember' && latest !== undefined) {
      storage.set(storageKey, String(latest));
      setStored(latest);
    } else if (decision === 'show') setNews({ changelogOpen: true });
  }, [decided, stored, latest, createdAt.data, storageKey]);

  const closeChangelog = () => {
    setNews({ changelogOpen: false });
    if (latest !== undefined) {
      storage.set(storageKey, String(latest));
      setStored(latest);
    }
  };

  const statusLink = links.statusPageUrl ? (
    <Link href={links.statusPageUrl} target="_blank" rel="noopener noreferrer" color="inherit">
      {t('platform_news.status_page')}
    </Link>
  ) : null;

  return (
    <>
      {newBuild && (
        <PlainBanner tone="info" label={t('platform_news.new_version')}>
          <Typography variant="body2" sx={{ flexGrow: 1 }}>
            {t('platform_news.new_version')}
          </Typography>
          <Button size="small" color="inherit" variant="outlined" onClick={() => window.location.reload()}>
            {t('platform_news.refresh')}
          </Button>
        </PlainBanner>
      )}
      {status && hasIncident(status) && (
        <PlainBanner tone="warning" label={t(`platform_news.status_${status.indicator}`)}>
          <Typography variant="body2" sx={{ flexGrow: 1 }}>
            {status.incidents.length > 0 ? t('platform_news.incidents', { names: status.incidents.map((i) => i.name).join(', ') }) : status.description}
          </Typography>
          {statusLink}
        </PlainBanner>
      )}
      {announcement && announcing && !dismissed && (
        <PlainBanner tone="info" label={t('platform_news.announcement')}>
          <Typography variant="body2" sx={{ flexGrow: 1 }}>
            {announcement.text}
          </Typography>
          {announcement.url && (
            <Link href={announcement.url} target="_blank" rel="noopener noreferrer" color="inherit">
              {t('platform_news.learn_more')}
            </Link>
          )}
          <Button
            size="small"
            color="inherit"
            onClick={() => {
              if (dismissalKey) storage.set(dismissalKey, 'true');
              setDismissed(true);
            }}
          >
            {t('platform_news.dismiss')}
          </Button>
        </PlainBanner>
      )}
      {changelogOpen && (
        <Suspense fallback={null}>
          <ChangelogDialog markdown={changelog.data} failed={changelog.isError} onClose={closeChangelog} />
        </Suspense>
      )}
    </>
  );
}
