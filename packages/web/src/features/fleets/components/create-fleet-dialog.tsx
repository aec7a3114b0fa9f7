import { zodResolver } from '@hookform/resolvers/zod';
import { fleetNameProblem } from '@flotilla/model';
import { Alert, CircularProgress, Stack } from '@mui/material';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { SelectInput, TextInput } from '../../../components/form-fields';
import { errorStatus } from '../../../lib/errors';
import { useNotify } from '../../../lib/notify';
import { useCreateFleet } from '../api/create-fleet';
import { useAdminOrganizations } from '../api/get-admin-organizations';
import { useDeviceTypes } from '../api/get-device-types';
import { suggestFleetName } from '../suggest-fleet-name';

/** Spec 2: the default device type is the 64-bit Raspberry Pi 4 type when it exists. */
const PREFERRED_DEVICE_TYPE = 'raspberrypi4-64';

interface Props {
  open: boolean;
  onClose: () => void;
}

export function CreateFleetDialog({ open, onClose }: Props) {
  const organizations = useAdminOrganizations(open);
  const deviceTypes = useDeviceTypes(open);
  if (!open) return null;
  return (
    <CreateFleetForm
      onClose={onClose}
      organizations={organizations.data}
      deviceTypes={deviceTypes.data}
      loadError={organizations.error ?? deviceTypes.error}
    />
  );
}

interface FormProps {
  onClose: () => void;
  organizations: { id: number; name: string }[] | undefined;
  deviceTypes: { slug: string; name: string }[] | undefined;
  loadError: unknown;
}

function CreateFleetForm({ onClose, organizations, deviceTypes, loadError }: FormProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const createFleet = useCreateFleet();
  const [suggestedName] = useState(suggestFleetName);
  const loading = (!organizations || !deviceTypes) && !loadError;
  const noOrganizations = organizations?.length === 0;

  const schema = z.object({
    organizationId: z.string().check(z.minLength(1, t('fleets.organization_required'))),
    // Spec 2 §5 name rules, shown as the user types.
    name: z.string().check(
      z.superRefine((name, ctx) => {
        const problem = fleetNameProblem(name);
        if (problem) ctx.addIssue({ code: 'custom', message: problem, input: name });
      }),
    ),
    deviceTypeSlug: z.string().check(z.minLength(1, t('fleets.device_type_required'))),
  });
  type Values = z.infer<typeof schema>;

  // The choices arrive after the dialog opens; fill them in then, keeping what the user typed.
  const initialValues = useMemo<Values>(
    () => ({
      organizationId: String(organizations?.[0]?.id ?? ''),
      name: suggestedName,
      deviceTypeSlug: deviceTypes?.find((d) => d.slug === PREFERRED_DEVICE_TYPE)?.slug ?? deviceTypes?.[0]?.slug ?? '',
    }),
    [organizations, deviceTypes, suggestedName],
  );
  const { register, handleSubmit, formState, setError } = useForm<Values>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    values: initialValues,
    resetOptions: { keepDirtyValues: true },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await createFleet.mutateAsync({
        name: values.name,
        organizationId: Number(values.organizationId),
        deviceTypeSlug: values.deviceTypeSlug,
      });
      notify.success(t('fleets.created', { name: values.name }));
      onClose();
    } catch (err) {
      if (errorStatus(err) === 409) setError('name', { message: t('fleets.name_taken') });
      else notify.error(err);
    }
  });

  return (
    <FormDialog
      open
      title={t('fleets.dialog_title')}
      submitLabel={t('fleets.submit')}
      cancelLabel={t('fleets.cancel')}
      submitting={formState.isSubmitting}
      submitDisabled={loading || noOrganizations || !!loadError}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      {loading && (
        <Stack sx={{ alignItems: 'center', py: 2 }}>
          <CircularProgress aria-label={t('app.loading')} />
        </Stack>
      )}
      {!!loadError && <Alert severity="error">{t('errors.unknown_error')}</Alert>}
      {noOrganizations && <Alert severity="info">{t('fleets.no_admin_organizations')}</Alert>}
      {organizations && deviceTypes && !noOrganizations && (
        <>
          <SelectInput
            {...register('organizationId')}
            id="create-fleet-organization"
            label={t('fleets.organization')}
            error={formState.errors.organizationId?.message}
          >
            {organizations.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </SelectInput>
          <TextInput
            {...register('name')}
            id="create-fleet-name"
            label={t('fleets.name')}
            autoComplete="off"
            error={formState.errors.name?.message}
            helperText={t('fleets.name_hint')}
          />
          <SelectInput
            {...register('deviceTypeSlug')}
            id="create-fleet-device-type"
            label={t('fleets.device_type')}
            error={formState.errors.deviceTypeSlug?.message}
          >
            {deviceTypes.map((d) => (
              <option key={d.slug} value={d.slug}>
                {d.name}
              </option>
            ))}
          </SelectInput>
        </>
      )}
    </FormDialog>
  );
}
