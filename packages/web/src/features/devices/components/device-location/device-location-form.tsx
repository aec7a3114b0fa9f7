import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { PermissionTooltip } from '../../../../components/permission-tooltip';
import { useMutationForm } from '../../../../lib/use-mutation-form';
import { useSaveDeviceLocation } from '../../api/device-location';
import { coordinateError, locationChanged, locationSaveDisabled, type LocationFormValues, type LocationMode } from '../../device-location';

interface Props {
  deviceId: number;
  uuid: string;
  /** The stored location as form values; the page remounts the form when it changes. */
  initial: LocationFormValues;
  /** resin.device.update (spec 2 §6: "location"). */
  canUpdate: boolean;
}

const AXES = ['latitude', 'longitude'] as const;
type Axis = (typeof AXES)[number];

/**
 * The Location page's Options panel (spec 2 §2, §4 "Location form", §5): geo location (what
 * the device reports) versus a manual location with latitude and longitude number inputs,
 * validated as typed with the server's rule. Save is disabled while unchanged, saving,
 * without permission or without both coordinates; geo location clears the custom ones.
 */
export function DeviceLocationForm({ deviceId, uuid, initial, canUpdate }: Props) {
  const { t } = useTranslation();
  const save = useSaveDeviceLocation(deviceId, uuid);
  // A field left empty says so only once it differs from the stored form (not on first view).
  const coordinateMessage = (value: string, axis: Axis) => {
    const error = coordinateError(value, axis);
    if (error === 'required' && value === initial[axis]) return undefined;
    return error === 'required' ? t('devices.location_required') : error === 'invalid' ? t(`devices.location_${axis}_invalid`) : undefined;
  };
  const schema = z
    .object({ mode: z.enum(['geo', 'manual']), latitude: z.string(), longitude: z.string() })
    .check(
      z.superRefine((v, ctx) => {
        if (v.mode !== 'manual') return;
        for (const axis of AXES) {
          const message = coordinateMessage(v[axis], axis);
          if (message !== undefined) ctx.addIssue({ code: 'custom', path: [axis], message, input: v[axis] });
        }
      }),
    );
  const { form, onSubmit, submitting, fieldError } = useMutationForm({
    schema,
    defaultValues: initial,
    submit: (values: LocationFormValues) => save.mutateAsync(values),
    success: t('devices.location_saved'),
  });
  const values = form.watch();
  const titleId = useId();
  const disabled = !canUpdate || submitting;
  const saveDisabled = locationSaveDisabled({ values, initial, saving: submitting, canUpdate });

  const field = (axis: Axis) => {
    const error = fieldError(axis);
    return (
      <TextField
        label={t(`devices.location_${axis}`)}
        type="number"
        value={values[axis]}
        // Checked as typed (spec 2 §5).
        onChange={(e) => form.setValue(axis, e.target.value, { shouldValidate: true })}
        disabled={disabled}
        error={error !== undefined}
        helperText={error ?? t(`devices.location_${axis}_hint`)}
        required
        size="small"
        slotProps={{ htmlInput: { step: 'any', min: axis === 'latitude' ? -90 : -180, max: axis === 'latitude' ? 90 : 180, inputMode: 'decimal' } }}
      />
    );
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: 2 }}>
      <form
        onSubmit={(e) => {
          if (saveDisabled) e.preventDefault();
          else onSubmit(e);
        }}
      >
        <Stack spacing={2}>
          <Typography variant="h6" component="h2" id={titleId}>
            {t('devices.location_options')}
          </Typography>
          <RadioGroup aria-label={t('devices.location_source')} value={values.mode} onChange={(e) => form.setValue('mode', e.target.value as LocationMode)}>
            <FormControlLabel
              value="geo"
              disabled={disabled}
              control={<Radio />}
              label={
                <span>
                  {t('devices.location_geo')}
                  <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
                    {t('devices.location_geo_hint')}
                  </Typography>
                </span>
              }
            />
            <FormControlLabel
              value="manual"
              disabled={disabled}
              control={<Radio />}
              label={
                <span>
                  {t('devices.location_manual')}
                  <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
                    {t('devices.location_manual_hint')}
                  </Typography>
                </span>
              }
            />
          </RadioGroup>
          {values.mode === 'manual' ? (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {field('latitude')}
              {field('longitude')}
            </Stack>
          ) : null}
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
            <Button onClick={() => form.reset(initial)} disabled={submitting || !locationChanged(values, initial)}>
              {t('common.cancel')}
            </Button>
            <PermissionTooltip allowed={canUpdate}>
              <Button type="submit" variant="contained" disabled={saveDisabled}>
                {submitting ? t('devices.location_saving') : t('common.save')}
              </Button>
            </PermissionTooltip>
          </Stack>
        </Stack>
      </form>
    </Paper>
  );
}
