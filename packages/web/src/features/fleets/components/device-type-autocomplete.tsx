import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { DeviceTypeIcon } from '../../../components/icons';
import type { DeviceTypeOption } from '../device-type-options';

/** The type's logo, or a chip icon when the catalogue has none. Decorative: the name follows it. */
function DeviceTypeLogo({ option }: { option: DeviceTypeOption | null }) {
  if (option?.logo) return <Box component="img" src={option.logo} alt="" data-testid="device-type-logo" sx={{ width: 24, height: 24, objectFit: 'contain', flexShrink: 0 }} />;
  return <DeviceTypeIcon data-testid="device-type-logo" aria-hidden fontSize="small" sx={{ color: 'text.secondary', width: 24, flexShrink: 0 }} />;
}

interface Props {
  id: string;
  label: string;
  options: DeviceTypeOption[];
  /** The chosen slug ('' for none). */
  value: string;
  onChange: (slug: string) => void;
  onBlur?: () => void;
  error?: string | undefined;
}

/**
 * The device-type picker of the create dialog (spec 2 §5, as balena's dashboard has it): an
 * autocomplete whose options show the type's logo and name, the first ok type marked
 * recommended, types in another state disabled and saying why.
 */
export function DeviceTypeAutocomplete({ id, label, options, value, onChange, onBlur, error }: Props) {
  const { t } = useTranslation();
  const selected = options.find((o) => o.slug === value) ?? null;
  const stateText = (o: DeviceTypeOption) => (o.state === 'ok' ? o.name : t(`fleets.device_type_state_${o.state}`, { name: o.name }));
  const why = (o: DeviceTypeOption) =>
    o.state === 'needsPlanUpgrade' ? t('fleets.device_type_paid_only') : o.state === 'needsMulticontainerSupport' ? t('fleets.device_type_needs_multicontainer') : undefined;
  return (
    <Autocomplete
      id={id}
      options={options}
      value={selected}
      onChange={(_, option) => onChange(option?.slug ?? '')}
      onBlur={onBlur}
      getOptionLabel={(o) => o.name}
      getOptionDisabled={(o) => o.disabled}
      isOptionEqualToValue={(a, b) => a.slug === b.slug}
      autoHighlight
      disableClearable={selected !== null}
      renderOption={(props, o) => {
        const { key, ...rest } = props;
        return (
          <Box component="li" key={key} {...rest} title={why(o)} sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }}>
            <DeviceTypeLogo option={o} />
            <Box component="span" sx={{ flex: 1 }}>
              {stateText(o)}
            </Box>
            {o.recommended ? <Chip size="small" color="primary" variant="outlined" label={t('fleets.device_types_recommended')} /> : null}
          </Box>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          error={!!error}
          helperText={error}
          // The label stays on the outline, as every field's does (components/form-fields.tsx).
          InputLabelProps={{ ...params.InputLabelProps, shrink: true }}
          InputProps={{
            ...params.InputProps,
            notched: true,
            startAdornment: selected ? <DeviceTypeLogo option={selected} /> : undefined,
          }}
        />
      )}
    />
  );
}
