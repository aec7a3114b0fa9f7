import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { DEVICE_PAGE_SIZES } from '../api/keys';

/**
 * The device table's page size (a native select). Its own chunk: it shows only when a fleet
 * has more devices than one page, and TextField's weight stays off the first page.
 */
export default function PageSizeSelect({ value, onChange }: { value: number; onChange: (size: number) => void }) {
  const { t } = useTranslation();
  return (
    <TextField
      select
      size="small"
      label={t('devices.page_size')}
      value={value}
      onChange={(e) => onChange(Number(e.target.value))}
      slotProps={{ select: { native: true } }}
      sx={{ minWidth: 120 }}
    >
      {DEVICE_PAGE_SIZES.map((size) => (
        <option key={size} value={size}>
          {size}
        </option>
      ))}
    </TextField>
  );
}
