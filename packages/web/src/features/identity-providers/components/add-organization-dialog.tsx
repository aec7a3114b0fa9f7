import { Typography } from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { SelectInput } from '../../../components/form-fields';
import { useMutationForm } from '../../../lib/use-mutation-form';
import type { OrganizationRef } from '../api/queries';

interface Props {
  /** Eligible organizations the provider does not authorize yet. */
  organizations: readonly OrganizationRef[];
  onAdd: (organizationId: number) => Promise<unknown>;
  onClose: () => void;
}

/** Spec 1 §4: another organization for the provider (POST identity_provider_membership). */
export function AddOrganizationDialog({ organizations, onAdd, onClose }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const { form, ...dialog } = useMutationForm({
    schema: z.object({ organizationId: z.string().check(z.minLength(1, t('identity_providers.organizations_required'))) }),
    defaultValues: { organizationId: organizations[0] ? String(organizations[0].id) : '' },
    submit: ({ organizationId }) => onAdd(Number(organizationId)),
    success: t('identity_providers.organization_added'),
    onSuccess: onClose,
  });
  const empty = organizations.length === 0;
  return (
    <FormDialog
      form={dialog}
      title={t('identity_providers.add_organization_title')}
      submitLabel={t('identity_providers.add_organization')}
      submitDisabled={empty}
      onClose={onClose}
    >
      {empty ? (
        <Typography color="text.secondary">{t('identity_providers.no_addable_organizations')}</Typography>
      ) : (
        <SelectInput {...form.register('organizationId')} id={id} label={t('identity_providers.organization')} error={dialog.fieldError('organizationId')}>
          {organizations.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name} ({o.handle})
            </option>
          ))}
        </SelectInput>
      )}
    </FormDialog>
  );
}
