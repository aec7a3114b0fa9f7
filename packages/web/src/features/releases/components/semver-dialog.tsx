import { parseReleaseSemver } from '@flotilla/model';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { useNotify } from '../../../lib/notify';
import { useSetReleaseSemver } from '../api/release-mutations';

/** Spec 2 §5: the version is a string; only three-part semver is supported (checked here and by the server). */
export function SemverDialog({ releaseId, current, onClose }: { releaseId: number; current: string; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const setSemver = useSetReleaseSemver();
  const [value, setValue] = useState(current);
  const [touched, setTouched] = useState(false);
  const semver = value.trim();
  const invalid = parseReleaseSemver(semver) === undefined;

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setTouched(true);
    if (invalid) return;
    try {
      await setSemver.mutateAsync({ id: releaseId, semver });
      notify.success(t('releases.semver_saved', { semver }));
      onClose();
    } catch (err) {
      notify.error(err);
    }
  };

  return (
    <FormDialog
      open
      title={t('releases.semver_title')}
      submitLabel={t('releases.semver_save')}
      cancelLabel={t('releases.cancel')}
      submitting={setSemver.isPending}
      onSubmit={(e) => void onSubmit(e)}
      onClose={onClose}
    >
      <TextInput
        id="release-semver"
        label={t('releases.semver_label')}
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          setTouched(true);
        }}
        error={touched && invalid ? t('releases.semver_three_part') : undefined}
        autoComplete="off"
        autoFocus
      />
    </FormDialog>
  );
}
