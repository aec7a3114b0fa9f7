import { certificateProblem, entryPointProblem, issuerProblem, ssoIdentifierProblem } from '@flotilla/model';
import { Button, Checkbox, FormControlLabel, FormHelperText, Stack, Typography } from '@mui/material';
import { useId, useState, type ChangeEvent } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { CheckboxGroup } from '../../../components/checkbox-group';
import { FormDialog } from '../../../components/form-dialog';
import { TextInput } from '../../../components/form-fields';
import { ruleCheck, ruledText } from '../../../lib/form-rules';
import { useMutationForm } from '../../../lib/use-mutation-form';
import type { CreatedIdentityProvider, IdentityProviderFields } from '../api/mutations';
import type { OrganizationRef } from '../api/queries';
import { readIdpMetadataFile } from '../metadata';

/** The file input is invisible; its label (a button) shows its keyboard focus. */
const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

interface CreateProps {
  mode: 'create';
  /** The organizations the user may authorize (eligible); the first one chosen creates the provider. */
  organizations: readonly OrganizationRef[];
  onSave: (input: { fields: IdentityProviderFields; organizationIds: number[] }) => Promise<CreatedIdentityProvider>;
  onCreated: (created: CreatedIdentityProvider) => void;
  onClose: () => void;
}

interface EditProps {
  mode: 'edit';
  initial: IdentityProviderFields;
  onSave: (input: { fields: IdentityProviderFields }) => Promise<unknown>;
  onClose: () => void;
}

/**
 * Add (spec 1 §4: the provider with the first organization, then the others' memberships)
 * or edit an identity provider. Every field is checked by the model's rule — the one the
 * server enforces — and the metadata XML fills entry point, issuer and certificate.
 */
export function IdentityProviderFormDialog(props: CreateProps | EditProps) {
  const { t } = useTranslation();
  const creating = props.mode === 'create';
  const ids = { identifier: useId(), entryPoint: useId(), issuer: useId(), certificate: useId(), file: useId(), organizations: useId() };
  const [metadata, setMetadata] = useState<{ name: string } | { error: string } | null>(null);

  const schema = z
    .object({
      sso_identifier: z.string().check(ruleCheck(ssoIdentifierProblem)),
      entry_point: ruledText(entryPointProblem),
      issuer: ruledText(issuerProblem),
      certificate: ruledText(certificateProblem),
      organizationIds: z.array(z.number()),
      acceptConditions: z.boolean(),
      understandApiKeys: z.boolean(),
    })
    .check(
      z.refine((v) => !creating || v.organizationIds.length > 0, { path: ['organizationIds'], error: t('identity_providers.organizations_required') }),
      z.refine((v) => !creating || (v.acceptConditions && v.understandApiKeys), { path: ['understandApiKeys'], error: t('identity_providers.consent_required') }),
    );

  const { form, ...dialog } = useMutationForm({
    schema,
    mode: 'onTouched',
    defaultValues: {
      ...(props.mode === 'edit' ? props.initial : { sso_identifier: '', entry_point: '', issuer: '', certificate: '' }),
      organizationIds: props.mode === 'create' && props.organizations.length === 1 ? [props.organizations[0]!.id] : [],
      acceptConditions: false,
      understandApiKeys: false,
    },
    submit: async ({ sso_identifier, entry_point, issuer, certificate, organizationIds }) => {
      const fields = { sso_identifier, entry_point, issuer, certificate };
      if (props.mode === 'create') return props.onSave({ fields, organizationIds });
      await props.onSave({ fields });
      return undefined;
    },
    success: creating ? t('identity_providers.created') : t('identity_providers.updated'),
    onSuccess: (created) => {
      if (props.mode === 'create' && created) props.onCreated(created);
      else props.onClose();
    },
  });

  const onMetadata = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const result = await readIdpMetadataFile(file);
    if (!result.ok) {
      setMetadata({ error: result.message });
      return;
    }
    setMetadata({ name: file.name });
    const opts = { shouldDirty: true, shouldValidate: true } as const;
    form.setValue('entry_point', result.fields.entryPoint, opts);
    form.setValue('issuer', result.fields.issuer, opts);
    form.setValue('certificate', result.fields.certificate, opts);
  };

  const values = form.watch();
  const filled = [values.sso_identifier, values.entry_point, values.issuer, values.certificate].every((v) => v.trim() !== '');
  const ready = filled && (!creating || (values.organizationIds.length > 0 && values.acceptConditions && values.understandApiKeys));
  const metadataError = metadata && 'error' in metadata ? metadata.error : undefined;

  return (
    <FormDialog
      form={dialog}
      title={creating ? t('identity_providers.add_title') : t('identity_providers.edit_title')}
      submitLabel={creating ? t('common.create') : t('common.save')}
      submitDisabled={!ready}
      maxWidth="md"
      onClose={props.onClose}
    >
      <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
        <Button
          component="label"
          htmlFor={ids.file}
          variant="outlined"
          sx={{ '&:has(+ input:focus-visible)': { outline: '2px solid', outlineOffset: 2 } }}
        >
          {t('identity_providers.metadata_upload')}
        </Button>
        <input
          id={ids.file}
          type="file"
          accept=".xml,application/xml,text/xml,application/samlmetadata+xml"
          aria-label={t('identity_providers.metadata_upload')}
          aria-describedby={`${ids.file}-help`}
          aria-invalid={!!metadataError || undefined}
          onChange={(e) => void onMetadata(e)}
          style={visuallyHidden}
        />
        <FormHelperText id={`${ids.file}-help`} error={!!metadataError} role={metadataError ? 'alert' : undefined}>
          {metadataError ??
            (metadata && 'name' in metadata ? t('identity_providers.metadata_read', { name: metadata.name }) : t('identity_providers.metadata_help'))}
        </FormHelperText>
      </Stack>
      <TextInput
        {...form.register('sso_identifier')}
        id={ids.identifier}
        label={t('identity_providers.sso_identifier')}
        error={dialog.fieldError('sso_identifier')}
        helperText={t('identity_providers.sso_identifier_help')}
        autoComplete="off"
        autoFocus
        required
      />
      <TextInput {...form.register('entry_point')} id={ids.entryPoint} label={t('identity_providers.entry_point')} error={dialog.fieldError('entry_point')} required />
      <TextInput {...form.register('issuer')} id={ids.issuer} label={t('identity_providers.issuer')} error={dialog.fieldError('issuer')} required />
      <TextInput
        {...form.register('certificate')}
        id={ids.certificate}
        label={t('identity_providers.certificate')}
        error={dialog.fieldError('certificate')}
        multiline
        minRows={4}
        maxRows={12}
        required
        inputProps={{ spellCheck: false }}
        sx={{ '& textarea': { fontFamily: 'monospace', fontSize: '0.8rem' } }}
      />
      {props.mode === 'create' && (
        <>
          <Stack spacing={0.5} role="group" aria-labelledby={ids.organizations}>
            <Typography id={ids.organizations} variant="subtitle2" component="p">
              {t('identity_providers.organizations')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('identity_providers.organizations_help')}
            </Typography>
            <Controller
              control={form.control}
              name="organizationIds"
              render={({ field }) => (
                <CheckboxGroup
                  label={t('identity_providers.organizations')}
                  options={props.organizations.map((o) => ({ value: o.id, label: `${o.name} (${o.handle})` }))}
                  value={field.value}
                  onChange={field.onChange}
                />
              )}
            />
            {dialog.fieldError('organizationIds') && <FormHelperText error>{dialog.fieldError('organizationIds')}</FormHelperText>}
          </Stack>
          <Stack>
            <Controller
              control={form.control}
              name="acceptConditions"
              render={({ field }) => (
                <FormControlLabel
                  control={<Checkbox checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
                  label={t('identity_providers.consent_conditions')}
                />
              )}
            />
            <Controller
              control={form.control}
              name="understandApiKeys"
              render={({ field }) => (
                <FormControlLabel
                  control={<Checkbox checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
                  label={t('identity_providers.consent_api_keys')}
                />
              )}
            />
            {dialog.fieldError('understandApiKeys') && <FormHelperText error>{dialog.fieldError('understandApiKeys')}</FormHelperText>}
          </Stack>
        </>
      )}
    </FormDialog>
  );
}
