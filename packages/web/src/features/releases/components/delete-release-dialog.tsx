import { useTranslation } from 'react-i18next';
import { TypeToConfirmDialog } from '../../../components/type-to-confirm-dialog';
import { useDeleteRelease } from '../api/release-mutations';
import { shortCommit } from '../release-view';

interface Props {
  release: { id: number; commit: string; raw_version: string };
  onClose: () => void;
  onDeleted: () => void;
}

/** Spec 2 §5 destructive confirmation: type the release's short commit; paste is blocked. */
export function DeleteReleaseDialog({ release, onClose, onDeleted }: Props) {
  const { t } = useTranslation();
  const remove = useDeleteRelease();
  const commit = shortCommit(release.commit);
  return (
    <TypeToConfirmDialog
      title={t('releases.delete_title')}
      warning={t('releases.delete_warning', { version: release.raw_version, commit })}
      expected={commit}
      label={t('releases.delete_confirm_label')}
      hint={t('releases.delete_confirm_hint', { commit })}
      emptyHint={t('releases.all_fields_required')}
      submitLabel={t('releases.delete')}
      inputId="delete-release-confirm"
      onConfirm={() => remove.mutateAsync({ ids: [release.id] })}
      success={t('releases.deleted', { commit })}
      onSuccess={onDeleted}
      // The server's answer (e.g. 'cannot delete pinned releases' when a device is pinned to it) is toasted.
      onFailed={onClose}
      onClose={onClose}
    />
  );
}
