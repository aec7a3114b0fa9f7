import { Avatar, Button, FormHelperText, Stack } from '@mui/material';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { useNotify } from '../../../lib/notify';
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
  const notify = useNotify();
  const inputId = useId();
  const setLogo = useSetOrganizationLogo();
  const removeLogo = useRemoveOrganizationLogo();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const current = logoSrc(organization.logo_image);
  const busy = setLogo.isPending || removeLogo.isPending;

  const onChoose = (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = e.target.files?.[0];
    e.target.value = ''; // choosing the same file again still fires a change
    if (!chosen) return;
    const problem = logoFileProblem(chosen);
    setFile(problem ? null : chosen);
    setPreview(undefined);
    setError(problem ? t(`org_summary.${problem}`) : undefined);
    if (problem) return;
    // A data: URL preview (the CSP allows data: images everywhere, blob: not under vite preview).
    const reader = new FileReader();
    reader.onload = () => setPreview(typeof reader.result === 'string' ? reader.result : undefined);
    reader.readAsDataURL(chosen);
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!file) {
      setError(t('org_summary.logo_required'));
      return;
    }
    try {
      await setLogo.mutateAsync({ id: organization.id, file });
      notify.success(t('org_summary.logo_updated'));
      onClose();
    } catch (err) {
      notify.error(err);
    }
  };

  const onRemove = async () => {
    try {
      await removeLogo.mutateAsync({ id: organization.id });
      notify.success(t('org_summary.logo_removed'));
      onClose();
    } catch (err) {
      notify.error(err);
    }
  };

  const shown = preview ?? current;
  return (
    <FormDialog
      open
      title={t('org_summary.logo_title')}
      submitLabel={t('org_summary.logo_upload')}
      cancelLabel={t('org_summary.cancel')}
      submitting={setLogo.isPending}
      submitDisabled={removeLogo.isPending}
      onSubmit={(e) => void onSubmit(e)}
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
