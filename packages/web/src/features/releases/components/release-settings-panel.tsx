import { Button, Paper, Stack, Typography } from '@mui/material';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionTooltip } from '../../../components/permission-tooltip';
import { useRunMutation } from '../../../lib/notify';
import type { ReleaseDetails } from '../api/get-release';
import { useFinalizeRelease, useSetReleaseIsInvalidated } from '../api/release-mutations';
import { blocksValidation, shownStatus } from '../release-view';
import { DeleteReleaseDialog } from './delete-release-dialog';

const ConfirmDialog = lazy(async () => ({ default: (await import('../../../components/confirm-dialog')).ConfirmDialog }));

interface Props {
  release: ReleaseDetails;
  now: number;
  canUpdate: boolean;
  canDelete: boolean;
  onDeleted: () => void;
}

/**
 * The release settings page (spec 2 §2, §4, §5): validate or invalidate, finalize (one way),
 * delete. A control the user may not use is disabled with the permission tooltip; one the
 * release's state forbids is disabled with the spec's reason shown beside it.
 */
export function ReleaseSettingsPanel({ release, now, canUpdate, canDelete, onDeleted }: Props) {
  const { t } = useTranslation();
  const run = useRunMutation();
  const setInvalidated = useSetReleaseIsInvalidated();
  const finalize = useFinalizeRelease();
  const [dialog, setDialog] = useState<'finalize' | 'delete' | null>(null);
  const status = shownStatus(release, now);

  // Making an invalidated release valid again is what failed releases may not do.
  const validateBlocked = release.is_invalidated && blocksValidation(status);
  const validityLabel = release.is_invalidated ? t('releases.validate') : t('releases.invalidate');
  const finalizeBlocked = release.is_final;
  const deleteBlocked = release.isFleetTarget;

  return (
    <Stack spacing={2}>
      <Section title={t('releases.validity')} body={release.is_invalidated ? t('releases.validity_invalid') : t('releases.validity_valid')} reason={validateBlocked ? t('releases.cannot_validate_failed') : undefined}>
        <PermissionTooltip allowed={canUpdate}>
          <Button
            variant="outlined"
            disabled={!canUpdate || validateBlocked}
            loading={setInvalidated.isPending}
            onClick={() =>
              void run(() => setInvalidated.mutateAsync({ id: release.id, isInvalidated: !release.is_invalidated }), {
                success: release.is_invalidated ? t('releases.validated') : t('releases.invalidated'),
              })
            }
          >
            {validityLabel}
          </Button>
        </PermissionTooltip>
      </Section>
      <Section title={t('releases.finalize_section')} body={t('releases.finalize_body')} reason={finalizeBlocked ? t('releases.already_finalized') : undefined}>
        <PermissionTooltip allowed={canUpdate}>
          <Button variant="outlined" disabled={!canUpdate || finalizeBlocked} onClick={() => setDialog('finalize')}>
            {t('releases.finalize')}
          </Button>
        </PermissionTooltip>
      </Section>
      <Section title={t('releases.delete_section')} body={t('releases.delete_body')} reason={deleteBlocked ? t('releases.cannot_delete_pinned') : undefined} danger>
        <PermissionTooltip allowed={canDelete}>
          <Button variant="contained" color="error" disabled={!canDelete || deleteBlocked} onClick={() => setDialog('delete')}>
            {t('releases.delete')}
          </Button>
        </PermissionTooltip>
      </Section>
      <Suspense fallback={null}>
        {dialog === 'finalize' && (
          <ConfirmDialog
            title={t('releases.finalize_title')}
            body={t('releases.finalize_confirm', { version: release.raw_version })}
            confirmLabel={t('releases.finalize')}
            onConfirm={() => finalize.mutateAsync({ id: release.id })}
            success={t('releases.finalized')}
            onClose={() => setDialog(null)}
          />
        )}
      </Suspense>
      {dialog === 'delete' && <DeleteReleaseDialog release={release} onClose={() => setDialog(null)} onDeleted={onDeleted} />}
    </Stack>
  );
}

function Section({ title, body, reason, danger, children }: { title: string; body: string; reason: string | undefined; danger?: boolean; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2, ...(danger ? { borderColor: 'error.main' } : {}) }}>
      <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
        <Typography variant="h6" component="h2">
          {title}
        </Typography>
        <Typography variant="body2">{body}</Typography>
        {children}
        {reason && (
          <Typography variant="body2" color="text.secondary" role="note">
            {reason}
          </Typography>
        )}
      </Stack>
    </Paper>
  );
}
