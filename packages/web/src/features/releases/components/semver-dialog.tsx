import { parseReleaseSemver } from '@flotilla/model';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { ruledText } from '../../../lib/form-rules';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { useSetReleaseSemver } from '../api/release-mutations';

/** Spec 2 §5: the version is a string; only three-part semver is supported (checked here and by the server). */
export function SemverDialog({ releaseId, current, onClose }: { releaseId: number; current: string; onClose: () => void }) {
  const { t } = useTranslation();
  const setSemver = useSetReleaseSemver();
  const threePart = t('releases.semver_three_part');
  const { form, ...dialog } = useMutationForm({
    schema: z.object({ semver: ruledText((v) => (parseReleaseSemver(v) === undefined ? threePart : undefined)) }),
    defaultValues: { semver: current },
    // Checked as the user types (spec 2 §5).
    mode: 'onChange',
    submit: async ({ semver }) => (await setSemver.mutateAsync({ id: releaseId, semver }), semver),
    success: (semver) => t('releases.semver_saved', { semver }),
    onSuccess: onClose,
  });

  return (
    <FormDialog form={dialog} title={t('releases.semver_title')} submitLabel={t('releases.semver_save')} onClose={onClose}>
      <TextInput {...form.register('semver')} id="release-semver" label={t('releases.semver_label')} error={dialog.fieldError('semver')} autoComplete="off" autoFocus />
    </FormDialog>
  );
}
