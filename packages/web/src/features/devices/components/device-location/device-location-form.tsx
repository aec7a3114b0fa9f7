import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useSnackbar } from 'notistack';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionTooltip } from '../../../../components/permission-tooltip';
import { errorMessage } from '../../../../lib/errors';
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

/**
 * The Location page's Options panel (spec 2 §2, §4 "Location form", §5): geo location (what
 * the device reports) versus a manual location with latitude and longitude number inputs,
 * validated as typed with the server's rule. Save is disabled while unchanged, saving,
 * without permission or without both coordinates; geo location clears the custom ones.
 */
export function DeviceLocationForm({ deviceId, uuid, initial, canUpdate }: Props) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const save = useSaveDeviceLocation(deviceId, uuid, {
    onSuccess: () => enqueueSnackbar(t('devices.location_saved'), { variant: 'success' }),
    onError: (err) => enqueueSnackbar(errorMessage(err, t), { variant: 'error' }),
  });
  const [values, setValues] = useState<LocationFormValues>(initial);
  const titleId = useId();
  const saving = save.isPending;
  const disabled = !canUpdate || saving;

  const errorText = (axis: 'latitude' | 'longitude') => {
    const value = values[axis];
    const error = coordinateError(value, axis);
    // A field left empty says so only once it differs from the stored form (not on first view).
    if (error === 'required' && value === initial[axis]) return undefined;
    return error === 'required' ? t('devices.location_required') : error === 'invalid' ? t(`devices.location_${axis}_invalid`) : undefined;
  };

  const submit = () => save.mutate(values);

  const field = (axis: 'latitude' | 'longitude') => {
    const error = errorText(axis);
    return (
      <TextField
        label={t(`devices.location_${axis}`)}
        type="number"
        value={values[axis]}
        onChange={(e) => setValues({ ...values, [axis]: e.target.value })}
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
          e.preventDefault();
          if (!locationSaveDisabled({ values, initial, saving, canUpdate })) submit();
        }}
      >
        <Stack spacing={2}>
          <Typography variant="h6" component="h2" id={titleId}>
            {t('devices.location_options')}
          </Typography>
          <RadioGroup
            aria-label={t('devices.location_source')}
            value={values.mode}
            onChange={(e) => setValues({ ...values, mode: e.target.value as LocationMode })}
          >
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
            <Button onClick={() => setValues(initial)} disabled={saving || !locationChanged(values, initial)}>
              {t('common.cancel')}
            </Button>
            <PermissionTooltip allowed={canUpdate}>
              <Button type="submit" variant="contained" disabled={locationSaveDisabled({ values, initial, saving, canUpdate })}>
                {saving ? t('devices.location_saving') : t('common.save')}
              </Button>
            </PermissionTooltip>
          </Stack>
        </Stack>
      </form>
    </Paper>
  );
}
