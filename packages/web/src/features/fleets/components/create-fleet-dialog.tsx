import { applicationNameClash, fleetNameProblem, type ApplicationClass } from '@flotilla/model';
import { Alert, CircularProgress, Stack } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod/mini';
import { FormDialog } from '../../../components/form-dialog';
import { SelectInput, TextInput } from '../../../components/form-fields';
import { errorMessage, errorStatus } from '../../../lib/errors';
import { useMutationForm } from '../../../lib/use-mutation-form';
import { useCreateApplication } from '../api/create-fleet';
import { useAdminOrganizations } from '../api/get-admin-organizations';
import { applicationsNamedQueryOptions, useApplicationsNamed, useOrganizationApplicationNames } from '../api/get-application-names';
import { useDeviceTypes, type DeviceTypeRow } from '../api/get-device-types';
import { deviceTypeOptions } from '../device-type-options';
import { DeviceTypeAutocomplete } from './device-type-autocomplete';
import { suggestFleetName } from '../suggest-fleet-name';
import { paths } from '../../../lib/paths';

/** How long typing pauses before the name's availability is asked. */
const NAME_CHECK_DELAY_MS = 250;

interface Props {
  open: boolean;
  onClose: () => void;
  /** The class of the list the dialog was opened from. */
  initialClass?: ApplicationClass;
  /** The organization of the list the dialog was opened from (/orgs/{orgId}/…). */
  initialOrganizationId?: number | undefined;
  /** The app class is offered only with the apps flag (spec 1 line 7). */
  appsEnabled?: boolean;
  /** A device type to preselect (a /deploy link's defaultDeviceType) when it is selectable. */
  initialDeviceType?: string | undefined;
}

/** Spec 2 §2 "Create fleet, app or block dialog": organization, name, device type, class. */
export function CreateFleetDialog({ open, onClose, initialClass = 'fleet', initialOrganizationId, appsEnabled = false, initialDeviceType }: Props) {
  const organizations = useAdminOrganizations(open);
  const deviceTypes = useDeviceTypes(open);
  if (!open) return null;
  const classes: ApplicationClass[] = appsEnabled || initialClass === 'app' ? ['fleet', 'app', 'block'] : ['fleet', 'block'];
  return (
    <CreateApplicationForm
      onClose={onClose}
      initialClass={initialClass}
      initialOrganizationId={initialOrganizationId}
      initialDeviceType={initialDeviceType}
      classes={classes}
      organizations={organizations.data}
      deviceTypes={deviceTypes.data}
      loadError={organizations.error ?? deviceTypes.error}
    />
  );
}

interface FormProps {
  onClose: () => void;
  initialClass: ApplicationClass;
  initialOrganizationId: number | undefined;
  initialDeviceType: string | undefined;
  classes: ApplicationClass[];
  organizations: { id: number; name: string }[] | undefined;
  deviceTypes: DeviceTypeRow[] | undefined;
  loadError: unknown;
}

function CreateApplicationForm({ onClose, initialClass, initialOrganizationId, initialDeviceType, classes, organizations, deviceTypes, loadError }: FormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const createApplication = useCreateApplication();
  const loading = (!organizations || !deviceTypes) && !loadError;
  const noOrganizations = organizations?.length === 0;
  const missing = t('fleets.missing_required_attributes');

  // New applications get the multicontainer application type, so single-container device
  // types are refused; no billing plans exist yet, so paid-only types are not limited.
  const typeOptions = useMemo(
    () => (deviceTypes ? deviceTypeOptions(deviceTypes, { plan: undefined, needsMulticontainer: true }) : undefined),
    [deviceTypes],
  );

  const schema = useMemo(
    () =>
      z.object({
        organizationId: z.string().check(z.minLength(1, missing)),
        // Spec 2 §5 name rules, shown as the user types.
        name: z.string().check(
          z.superRefine((name, ctx) => {
            const problem = name.length === 0 ? missing : fleetNameProblem(name);
            if (problem) ctx.addIssue({ code: 'custom', message: problem, input: name });
          }),
        ),
        deviceTypeSlug: z.string().check(z.minLength(1, missing)),
        applicationClass: z.enum(['fleet', 'app', 'block']),
      }),
    [missing],
  );
  type Values = z.infer<typeof schema>;

  const preselectedOrganization =
    organizations?.find((o) => o.id === initialOrganizationId)?.id ?? organizations?.[0]?.id;
  const [organizationId, setOrganizationId] = useState<number | undefined>(undefined);
  const chosenOrganization = organizationId ?? preselectedOrganization;

  // Spec 2 §5: the suggestion avoids the chosen organization's names.
  const organizationNames = useOrganizationApplicationNames(chosenOrganization);
  const suggestedName = useMemo(() => (organizationNames.data ? suggestFleetName(organizationNames.data) : ''), [organizationNames.data]);

  // The choices arrive after the dialog opens; fill them in then, keeping what the user typed.
  const initialValues = useMemo<Values>(
    () => ({
      organizationId: String(preselectedOrganization ?? ''),
      name: suggestedName,
      // The requested type when it is selectable, else the recommended one.
      deviceTypeSlug:
        typeOptions?.find((o) => o.slug === initialDeviceType && o.state === 'ok')?.slug ?? typeOptions?.find((o) => o.recommended)?.slug ?? '',
      applicationClass: initialClass,
    }),
    [preselectedOrganization, suggestedName, typeOptions, initialClass, initialDeviceType],
  );
  const { form, ...dialog } = useMutationForm({
    schema,
    defaultValues: initialValues,
    mode: 'onChange',
    values: initialValues,
    resetOptions: { keepDirtyValues: true },
    submit: async (submitted) => {
      const id = await createApplication.mutateAsync({
        name: submitted.name,
        organizationId: Number(submitted.organizationId),
        deviceTypeSlug: submitted.deviceTypeSlug,
        applicationClass: submitted.applicationClass,
      });
      return { ...submitted, id };
    },
    success: (created) => t('fleets.created', { name: created.name }),
    onSuccess: (created) => {
      onClose();
      void navigate(paths.application(created.applicationClass, created.id));
    },
    onError: (err) => {
      if (errorStatus(err) !== 409) return false;
      // Someone took the name meanwhile: say which class holds it when the user can see it.
      const name = form.getValues('name');
      void queryClient
        .fetchQuery({ ...applicationsNamedQueryOptions(name), staleTime: 0 })
        .catch(() => [])
        .then((holders) => form.setError('name', { message: applicationNameClash(name, holders) ?? errorMessage(err, t) }));
      return true;
    },
  });
  const { register, formState, watch, control } = form;

  const values = watch();
  const { onChange: onOrganizationChange, ...organizationField } = register('organizationId');

  // Uniqueness across the user's applications, asked once typing pauses; answers cached 8 s.
  const name = values.name ?? '';
  const [checkedName, setCheckedName] = useState(name);
  useEffect(() => {
    const timer = setTimeout(() => setCheckedName(name), NAME_CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [name]);
  const syntaxOk = name.length > 0 && fleetNameProblem(name) === undefined;
  const named = useApplicationsNamed(checkedName, syntaxOk && checkedName === name);
  const clash = syntaxOk && checkedName === name && named.data ? applicationNameClash(name, named.data) : undefined;
  const checking = syntaxOk && (checkedName !== name || named.isFetching || !named.data);

  const nameError = formState.errors.name?.message ?? clash;
  const valid = schema.safeParse(values).success && !clash;

  const appClass = values.applicationClass ?? initialClass;
  return (
    <FormDialog
      form={dialog}
      title={t(`fleets.dialog_title_${appClass}`)}
      submitLabel={t(`fleets.create_${appClass}`)}
      submitDisabled={loading || noOrganizations || !!loadError || !valid || checking}
      onClose={onClose}
    >
      {loading && (
        <Stack sx={{ alignItems: 'center', py: 2 }}>
          <CircularProgress aria-label={t('app.loading')} />
        </Stack>
      )}
      {!!loadError && <Alert severity="error">{t('errors.unknown_error')}</Alert>}
      {noOrganizations && <Alert severity="info">{t('fleets.no_admin_organizations')}</Alert>}
      {organizations && typeOptions && !noOrganizations && (
        <>
          <SelectInput
            {...organizationField}
            onChange={(event) => {
              setOrganizationId(Number(event.target.value));
              return onOrganizationChange(event);
            }}
            id="create-application-organization"
            label={t('fleets.organization')}
            error={formState.errors.organizationId?.message}
          >
            {organizations.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </SelectInput>
          <SelectInput
            {...register('applicationClass')}
            id="create-application-class"
            label={t('fleets.application_class')}
          >
            {classes.map((c) => (
              <option key={c} value={c}>
                {t(`fleets.class_${c}`)}
              </option>
            ))}
          </SelectInput>
          <TextInput
            {...register('name')}
            id="create-application-name"
            label={t(`fleets.name_${appClass}`)}
            autoComplete="off"
            error={nameError}
            helperText={checking ? t('fleets.name_checking') : t('fleets.name_hint')}
          />
          <Controller
            control={control}
            name="deviceTypeSlug"
            render={({ field, fieldState }) => (
              <DeviceTypeAutocomplete
                id="create-application-device-type"
                label={t('fleets.device_type')}
                options={typeOptions}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
              />
            )}
          />
        </>
      )}
    </FormDialog>
  );
}
