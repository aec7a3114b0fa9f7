import { checkOsReleasePublish, OS_PUBLISH_MESSAGES, OS_RELEASE_PHASES, OS_RELEASE_TEXT_MAX, OS_VARIANTS, type OsReleasePublishInput } from '@flotilla/model';
import { Button, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { SelectInput, TextInput } from '../../../components/form-fields';
import { errorMessage } from '../../../lib/errors';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { usePublishOsRelease } from '../api/os-releases';

type Values = Required<Omit<OsReleasePublishInput, 'deviceType'>> & { [K in 'phase' | 'basedOn' | 'knownIssues' | 'releaseNotes']: string };
type Field = keyof Values;

/** Which field each of the model's refusals belongs under (the server answers the same texts). */
const FIELD_OF: Record<string, Field> = {
  [OS_PUBLISH_MESSAGES.badVersion]: 'version',
  [OS_PUBLISH_MESSAGES.exists]: 'version',
  [OS_PUBLISH_MESSAGES.badVariant]: 'variant',
  [OS_PUBLISH_MESSAGES.badPhase]: 'phase',
  [OS_PUBLISH_MESSAGES.esrPhase]: 'phase',
  [OS_PUBLISH_MESSAGES.esrWithoutBase]: 'basedOn',
  [OS_PUBLISH_MESSAGES.badBase]: 'basedOn',
  [OS_PUBLISH_MESSAGES.baseOnDefault]: 'basedOn',
  [OS_PUBLISH_MESSAGES.tooLong]: 'releaseNotes',
};

const text = z.string();
const schema = z.object({ version: text, variant: text, phase: text, basedOn: text, knownIssues: text, releaseNotes: text });

/**
 * Publish a host OS release (platform administrators): the form is checked with the model's
 * `checkOsReleasePublish` (the server's own rules, against the releases listed), then a
 * confirmation, then POST /admin/v1/os-releases. A server refusal shows under the form.
 */
export function PublishOsReleaseDialog({ deviceType, deviceTypeName, existing, onClose }: { deviceType: string; deviceTypeName: string; existing: readonly string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const publish = usePublishOsRelease();
  const [confirming, setConfirming] = useState<string | null>(null);
  const { form, onSubmit, submitting, fieldError } = useMutationForm({
    schema,
    defaultValues: { version: '', variant: 'prod', phase: '', basedOn: '', knownIssues: '', releaseNotes: '' },
    submit: async (values): Promise<string | null> => {
      const input = { deviceType, ...values };
      const checked = checkOsReleasePublish(input, existing);
      if (!checked.release) {
        const field = FIELD_OF[checked.error];
        if (field) form.setError(field, { message: checked.error });
        else form.setError('root.server', { message: checked.error });
        return null;
      }
      const raw = `${checked.release.semver}+rev${checked.release.revision}.${checked.release.variant}`;
      if (confirming !== raw) {
        setConfirming(raw);
        return null;
      }
      await publish.mutateAsync(input);
      return raw;
    },
    success: (raw) => (raw ? t('admin.os_releases.published_toast', { version: raw }) : undefined),
    onSuccess: (raw) => raw && onClose(),
    onError: (err) => {
      form.setError('root.server', { message: errorMessage(err, t) });
      return true;
    },
  });
  const rootError = form.formState.errors.root?.server?.message;
  const edit = () => setConfirming(null);

  return (
    <FormDialog
      title={t('admin.os_releases.publish_title', { deviceType: deviceTypeName })}
      submitLabel={confirming ? t('admin.os_releases.confirm_publish') : t('admin.os_releases.continue')}
      form={{ onSubmit, submitting }}
      onClose={onClose}
      // On the confirmation: Back to the form instead of Cancel.
      actions={
        confirming ? (
          <>
            <Button onClick={() => setConfirming(null)} disabled={submitting}>
              {t('admin.os_releases.back')}
            </Button>
            <Button type="submit" variant="contained" loading={submitting}>
              {t('admin.os_releases.confirm_publish')}
            </Button>
          </>
        ) : undefined
      }
    >
      {confirming ? (
        <Typography>{t('admin.os_releases.confirm_body', { version: confirming, deviceType: deviceTypeName })}</Typography>
      ) : (
        <>
          <TextInput
            {...form.register('version', { onChange: edit })}
            id={`${id}-version`}
            label={t('admin.os_releases.version')}
            autoComplete="off"
            error={fieldError('version')}
            helperText={t('admin.os_releases.version_help')}
            inputProps={{ maxLength: 100 }}
          />
          <SelectInput {...form.register('variant', { onChange: edit })} id={`${id}-variant`} label={t('admin.os_releases.variant')} error={fieldError('variant')}>
            {OS_VARIANTS.map((v) => (
              <option key={v} value={v}>
                {t(`admin.os_releases.variant_${v}`)}
              </option>
            ))}
          </SelectInput>
          <SelectInput {...form.register('phase', { onChange: edit })} id={`${id}-phase`} label={t('admin.os_releases.phase')} error={fieldError('phase')}>
            <option value="">{t('admin.os_releases.phase_none')}</option>
            {OS_RELEASE_PHASES.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </SelectInput>
          <TextInput
            {...form.register('basedOn', { onChange: edit })}
            id={`${id}-based-on`}
            label={t('admin.os_releases.based_on')}
            autoComplete="off"
            error={fieldError('basedOn')}
            inputProps={{ maxLength: 100 }}
          />
          <TextInput
            {...form.register('knownIssues', { onChange: edit })}
            id={`${id}-known-issues`}
            label={t('admin.os_releases.known_issues')}
            multiline
            minRows={2}
            error={fieldError('knownIssues')}
            inputProps={{ maxLength: OS_RELEASE_TEXT_MAX }}
          />
          <TextInput
            {...form.register('releaseNotes', { onChange: edit })}
            id={`${id}-notes`}
            label={t('admin.os_releases.release_notes')}
            multiline
            minRows={2}
            error={fieldError('releaseNotes')}
            inputProps={{ maxLength: OS_RELEASE_TEXT_MAX }}
          />
        </>
      )}
      {!!rootError && (
        <Typography role="alert" color="error">
          {rootError}
        </Typography>
      )}
    </FormDialog>
  );
}
