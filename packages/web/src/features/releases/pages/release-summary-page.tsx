import { Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSetReleaseKnownIssueList, useSetReleaseNote } from '../api/release-mutations';
import { AutosaveTextField } from '../../../components/autosave-text-field';
import { BuildLogViewer } from '../components/build-log-viewer';
import { ReleaseDetailsCard } from '../components/release-details-card';
import { ReleaseImages } from '../components/release-images';
import { ReleaseTags } from '../components/release-tags';
import { SemverDialog } from '../components/semver-dialog';
import { prettyComposition, showsImageStatusIcons, shownStatus } from '../release-view';
import type { FleetAccess } from '../../../lib/fleet-access';
import type { ReleaseDetails } from '../api/get-release';
import '../i18n';

/** /{class}s/{id}/releases/{releaseId}/summary (spec 2 §2 "Release pages"). */
export function ReleaseSummaryPage({ release, access, fetchedAt }: { release: ReleaseDetails; access: FleetAccess; fetchedAt: number }) {
  const { t } = useTranslation();
  const setNote = useSetReleaseNote();
  const setKnownIssues = useSetReleaseKnownIssueList();
  const [editingVersion, setEditingVersion] = useState(false);
  const canUpdate = access.can('resin.release.update');
  const composition = prettyComposition(release.composition);

  return (
    <Stack spacing={3}>
      <ReleaseDetailsCard release={release} now={fetchedAt} canUpdate={canUpdate} onEditVersion={() => setEditingVersion(true)} />
      <Paper variant="outlined" component="section" aria-label={t('releases.notes')} sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {t('releases.notes')}
        </Typography>
        <Stack spacing={1}>
          <AutosaveTextField
            key={`known-${release.id}`}
            id="release-known-issues"
            label={t('releases.known_issues')}
            initialValue={release.known_issue_list ?? ''}
            disabled={!canUpdate}
            onSave={(value) => setKnownIssues.mutateAsync({ id: release.id, knownIssueList: value })}
            savingLabel={t('releases.saving')}
            savedLabel={t('releases.saved')}
          />
          <AutosaveTextField
            key={`note-${release.id}`}
            id="release-note"
            label={t('releases.note')}
            initialValue={release.note ?? ''}
            disabled={!canUpdate}
            onSave={(value) => setNote.mutateAsync({ id: release.id, note: value })}
            savingLabel={t('releases.saving')}
            savedLabel={t('releases.saved')}
          />
        </Stack>
      </Paper>
      <ReleaseTags releaseId={release.id} tags={release.tags} canEdit={access.can('resin.release_tag.create')} />
      <Stack component="section" aria-label={t('releases.composition')} spacing={1}>
        <Typography variant="h6" component="h2">
          {t('releases.composition')}
        </Typography>
        {composition === undefined ? (
          <Typography color="text.secondary">{t('releases.composition_unparsable')}</Typography>
        ) : (
          <Typography
            component="pre"
            aria-label={t('releases.composition')}
            sx={{ m: 0, p: 1.5, maxHeight: 400, overflow: 'auto', bgcolor: 'action.hover', borderRadius: 1, fontSize: 12 }}
          >
            {composition}
          </Typography>
        )}
      </Stack>
      <Stack component="section" aria-label={t('releases.build_log')} spacing={1}>
        <Typography variant="h6" component="h2">
          {t('releases.build_log')}
        </Typography>
        <BuildLogViewer label={t('releases.build_log')} text={release.build_log} />
      </Stack>
      <ReleaseImages images={release.images} showStatusMarks={showsImageStatusIcons(shownStatus(release, fetchedAt))} />
      {editingVersion && <SemverDialog releaseId={release.id} current={release.semver} onClose={() => setEditingVersion(false)} />}
    </Stack>
  );
}
