import { Avatar, Button, FormHelperText, Stack } from '@mui/material';
import { useId, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { useRunMutation } from '../../../lib/notify';
import { useRemoveOrganizationLogo } from '../api/remove-organization-logo';
import { useSetOrganizationLogo } from '../api/set-organization-logo';
import { LOGO_ACCEPT, logoFileProblem, logoSrc } from '../logo-file';

// Visually hidden but focusable and labelled, so keyboards, screen readers and tests reach it.
const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

interface Props {
  organization: { id: number; name: string; logo_image: unknown };
  onClose: () => void;
}

/** The avatar dialog: choose a png/jpeg image (required) and upload it, or remove the logo. */
export function OrganizationLogoDialog({ organization, onClose }: Props) {
  const { t } = useTranslation();
  const run = useRunMutation();
  const inputId = useId();
  const setLogo = useSetOrganizationLogo();
  const removeLogo = useRemoveOrganizationLogo();
  const [preview, setPreview] = useState<string | undefined>(undefined);
  const { form, ...dialog } = useMutationForm({
    schema: z.object({ file: z.custom<File | null>().check(z.refine((f) => f instanceof File, t('org_summary.logo_required'))) }),
    defaultValues: { file: null },
    submit: ({ file }) => setLogo.mutateAsync({ id: organization.id, file: file! }),
    success: t('org_summary.logo_updated'),
    onSuccess: onClose,
  });
  const file = form.watch('file');
  const error = dialog.fieldError('file');
  const current = logoSrc(organization.logo_image);
  const busy = setLogo.isPending || removeLogo.isPending;

  const onChoose = (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = e.target.files?.[0];
    e.target.value = ''; // choosing the same file again still fires a change
    if (!chosen) return;
    const problem = logoFileProblem(chosen);
    form.setValue('file', problem ? null : chosen);
    setPreview(undefined);
    if (problem) form.setError('file', { message: t(`org_summary.${problem}`) });
    else form.clearErrors('file');
    if (problem) return;
    // A data: URL preview (the CSP allows data: images everywhere, blob: not under vite preview).
    const reader = new FileReader();
    reader.onload = () => setPreview(typeof reader.result === 'string' ? reader.result : undefined);
    reader.readAsDataURL(chosen);
  };

  const onRemove = () => run(() => removeLogo.mutateAsync({ id: organization.id }), { success: t('org_summary.logo_removed'), onSuccess: onClose });

  const shown = preview ?? current;
  return (
    <FormDialog
      form={dialog}
      title={t('org_summary.logo_title')}
      submitLabel={t('org_summary.logo_upload')}
      submitDisabled={removeLogo.isPending}
      onClose={busy ? () => undefined : onClose}
    >
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Avatar
          src={shown}
          alt={preview ? t('org_summary.logo_preview') : shown ? t('org_summary.logo_alt', { name: organization.name }) : undefined}
          variant="rounded"
          sx={{ width: 96, height: 96, fontSize: 40 }}
        >
          {organization.name.slice(0, 1).toUpperCase()}
        </Avatar>
        <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
          <Button
            component="label"
            htmlFor={inputId}
            variant="outlined"
            disabled={busy}
            // The input itself is invisible; its keyboard focus shows on this button.
            sx={{ '&:has(+ input:focus-visible)': { outline: '2px solid', outlineOffset: 2 } }}
          >
            {t('org_summary.logo_choose')}
          </Button>
          <input
            id={inputId}
            type="file"
            accept={LOGO_ACCEPT}
            aria-label={t('org_summary.logo_input')}
            aria-describedby={`${inputId}-help`}
            aria-invalid={!!error || undefined}
            onChange={onChoose}
            disabled={busy}
            style={visuallyHidden}
          />
          {current && (
            <Button color="error" onClick={() => void onRemove()} loading={removeLogo.isPending} disabled={setLogo.isPending}>
              {t('org_summary.logo_remove')}
            </Button>
          )}
        </Stack>
      </Stack>
      <FormHelperText id={`${inputId}-help`} error={!!error} role={error ? 'alert' : undefined}>
        {error ?? (file ? file.name : t('org_summary.logo_hint'))}
      </FormHelperText>
    </FormDialog>
  );
}
