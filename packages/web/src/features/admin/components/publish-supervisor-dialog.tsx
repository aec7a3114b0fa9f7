import { CPU_ARCHITECTURES, DEVICE_TYPES, isPlainSemver } from '@flotilla/model';
import { Button, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { SelectInput, TextInput } from '../../../components/form-fields';
import { errorMessage } from '../../../lib/errors';
import { ruleCheck } from '../../../lib/form-rules';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { usePublishSupervisorRelease } from '../api/os-releases';

const ALL = 'all';
/** Architectures with a supervisor block: those of at least one catalogue device type (the server refuses the others). */
const ARCHITECTURES = CPU_ARCHITECTURES.filter((a) => DEVICE_TYPES.some((d) => d.arch === a));

/**
 * Publish an agent build as a supervisor release (platform administrators): the file, its
 * version and an architecture (or all), a confirmation, then POST
 * /admin/v1/supervisor-releases with the file as the body. The server checks the version and
 * the build; its refusal shows under the form.
 */
export function PublishSupervisorDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const publish = usePublishSupervisorRelease();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const { form, onSubmit, submitting, fieldError } = useMutationForm({
    schema: z.object({
      // The server's rule and words (agent-releases): a plain x.y.z.
      version: z.string().check(
        z.trim(),
        z.minLength(1, t('admin.supervisor_releases.version_required')),
        ruleCheck((v: string) => (isPlainSemver(v) ? undefined : t('admin.supervisor_releases.version_invalid', { version: v.slice(0, 64) }))),
      ),
      arch: z.string(),
    }),
    defaultValues: { version: '', arch: ALL },
    submit: async ({ version, arch }) => {
      if (!file) {
        setFileError(t('admin.supervisor_releases.file_required'));
        return null;
      }
      if (!confirming) {
        setConfirming(true);
        return null;
      }
      return publish.mutateAsync({ file, version: version.trim(), arch });
    },
    success: (releases) => (releases ? t('admin.supervisor_releases.published_toast', { version: releases[0]?.version ?? '', count: releases.length }) : undefined),
    onSuccess: (releases) => releases && onClose(),
    onError: (err) => {
      form.setError('root.server', { message: t('admin.supervisor_releases.upload_failed', { reason: errorMessage(err, t) }) });
      setConfirming(false);
      return true;
    },
  });
  const rootError = form.formState.errors.root?.server?.message;
  const values = form.watch();
  const edit = () => setConfirming(false);

  return (
    <FormDialog
      title={t('admin.supervisor_releases.publish_title')}
      submitLabel={confirming ? t('admin.supervisor_releases.confirm_publish') : t('admin.os_releases.continue')}
      form={{ onSubmit, submitting }}
      onClose={onClose}
      // On the confirmation: Back to the form instead of Cancel.
      actions={
        confirming ? (
          <>
            <Button onClick={() => setConfirming(false)} disabled={submitting}>
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
        <Typography>
          {t('admin.supervisor_releases.confirm_body', {
            version: values.version.trim(),
            file: file?.name ?? '',
            arch: values.arch === ALL ? t('admin.supervisor_releases.all_architectures') : values.arch,
          })}
        </Typography>
      ) : (
        <>
          <TextInput
            id={`${id}-file`}
            type="file"
            label={t('admin.supervisor_releases.file')}
            error={fileError}
            onChange={(e) => {
              const input = e.target as HTMLInputElement;
              setFile(input.files?.[0] ?? null);
              setFileError(undefined);
              edit();
            }}
          />
          <TextInput
            {...form.register('version', { onChange: edit })}
            id={`${id}-version`}
            label={t('admin.supervisor_releases.version')}
            autoComplete="off"
            error={fieldError('version')}
            inputProps={{ maxLength: 100 }}
          />
          <SelectInput {...form.register('arch', { onChange: edit })} id={`${id}-arch`} label={t('admin.supervisor_releases.architecture')}>
            <option value={ALL}>{t('admin.supervisor_releases.all_architectures')}</option>
            {ARCHITECTURES.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </SelectInput>
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
