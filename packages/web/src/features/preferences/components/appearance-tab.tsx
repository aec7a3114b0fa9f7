import { Box, Button, FormControlLabel, FormHelperText, Stack, Switch, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput } from '../../../components/form-fields';
import { useNotify } from '../../../lib/notify';
import { useSession } from '../../../lib/get-session';
import { useIsStaging, useSaveAppearance } from '../api/account';
import { useAppearance, type Appearance } from '../api/get-apps-enabled';

const DEFAULT_PICKER_COLOR = '#1976d2';

/** Spec 1 §2 appearance: header colour, navigation stripes (staging deployments only), display apps. */
export function AppearanceTab() {
  const { t } = useTranslation();
  const notify = useNotify();
  const { data: user } = useSession();
  const appearance = useAppearance();
  const staging = useIsStaging().data === true;
  const save = useSaveAppearance(user?.id);
  const [color, setColor] = useState(DEFAULT_PICKER_COLOR);
  useEffect(() => {
    if (appearance?.headerColor) setColor(appearance.headerColor);
  }, [appearance?.headerColor]);

  const change = (value: Partial<Appearance>) =>
    save.mutate(value, { onSuccess: () => notify.success(t('preferences.appearance.saved')), onError: notify.error });

  return (
    <Stack component="section" aria-label={t('preferences.appearance.title')} spacing={3} sx={{ maxWidth: 560 }}>
      <Typography variant="h6" component="h2">
        {t('preferences.appearance.title')}
      </Typography>
      <Stack spacing={1}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Box sx={{ width: 160 }}>
            <TextInput
              id="appearance-header-color"
              type="color"
              label={t('preferences.appearance.header_color')}
              value={color}
              onChange={(e) => setColor(e.target.value)}
              disabled={!appearance}
            />
          </Box>
          <Button
            variant="contained"
            // Nothing to save until the picked colour differs from the saved one (or the default).
            disabled={!appearance || save.isPending || color.toLowerCase() === (appearance.headerColor ?? DEFAULT_PICKER_COLOR)}
            onClick={() => change({ headerColor: color.toLowerCase() })}
          >
            {t('preferences.appearance.save_color')}
          </Button>
          <Button disabled={!appearance?.headerColor || save.isPending} onClick={() => change({ headerColor: null })}>
            {t('preferences.appearance.reset_color')}
          </Button>
        </Stack>
        <FormHelperText>{t('preferences.appearance.header_color_help')}</FormHelperText>
      </Stack>
      {staging && (
        <Stack>
          <FormControlLabel
            control={
              <Switch
                checked={appearance?.showsNavigationStripes ?? false}
                disabled={!appearance || save.isPending}
                onChange={(e) => change({ showsNavigationStripes: e.target.checked })}
              />
            }
            label={t('preferences.appearance.stripes')}
          />
          <FormHelperText>{t('preferences.appearance.stripes_help')}</FormHelperText>
        </Stack>
      )}
      <Stack>
        <FormControlLabel
          control={
            <Switch checked={appearance?.displaysApps ?? false} disabled={!appearance || save.isPending} onChange={(e) => change({ displaysApps: e.target.checked })} />
          }
          label={t('preferences.appearance.display_apps')}
        />
        <FormHelperText>{t('preferences.appearance.display_apps_help')}</FormHelperText>
      </Stack>
    </Stack>
  );
}
