import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ExpiryField } from '../../../components/expiry-field';
import { SelectInput, TextInput } from '../../../components/form-fields';
import { errorMessage } from '../../../lib/errors';
import { DEFAULT_KEY_EXPIRY, keyExpiry, type KeyExpiryValue } from '../../../lib/key-expiry';
import { useNotify } from '../../../lib/notify';
import { compatibleDeviceTypes, installCommand, SYSTEMD_UNIT_EXAMPLE } from '../add-device-rules';
import { useDeviceTypeChoices, useDownloadConfig, useMintProvisioningKey } from '../api/add-device';
import '../i18n';

type Way = 'linux' | 'balenaos';

interface Props {
  fleet: { id: number; app_name: string; deviceType: { slug: string } | null };
  /** A notice from the route above the form (spec 3 §8 free plan allowance reached). */
  notice?: ReactNode;
  onClose: () => void;
}

function downloadJson(filename: string, value: object) {
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(value, null, 2)}\n`], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Add device (issue 14 item 4): the device type (the fleet's compatible ones, the fleet's by
 * default), a provisioning key's name and expiry, and two ways in: a copyable command for
 * Linux with Docker or Podman (the key is minted when asked for, not on open) and balenaOS's
 * config.json (a key minted per download).
 */
export function AddDeviceDialog({ fleet, notice, onClose }: Props) {
  const { t } = useTranslation();
  const notify = useNotify();
  const titleId = useId();
  const types = useDeviceTypeChoices();
  const choices = useMemo(() => compatibleDeviceTypes(types.data ?? [], fleet.deviceType?.slug), [types.data, fleet.deviceType?.slug]);
  const [deviceType, setDeviceType] = useState(fleet.deviceType?.slug ?? '');
  const [keyName, setKeyName] = useState('');
  const [expiry, setExpiry] = useState<KeyExpiryValue>(DEFAULT_KEY_EXPIRY);
  const [way, setWay] = useState<Way>('linux');
  const [key, setKey] = useState<string | null>(null);
  const mint = useMintProvisioningKey(fleet.id);
  const config = useDownloadConfig(fleet.id);

  const expiryDate = keyExpiry(expiry.choice, expiry.custom, new Date());
  const expiryError = 'error' in expiryDate ? t(`key_expiry.${expiryDate.error}`) : undefined;
  const keyRequest = () => ({ name: keyName.trim(), expiryDate: 'error' in expiryDate ? null : (expiryDate.expiryDate ?? null) });
  const busy = mint.isPending || config.isPending;
  const command = key ? installCommand({ origin: window.location.origin, fleetId: fleet.id, deviceType, provisioningKey: key }) : null;

  const copy = async () => {
    if (!command) return;
    try {
      await navigator.clipboard.writeText(command);
      notify.success(t('add_device.copied'));
    } catch {
      notify.error(t('add_device.copy_failed'));
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{t('add_device.title', { fleet: fleet.app_name })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {notice}
          {types.isError ? <Alert severity="error">{t('add_device.device_types_failed')}</Alert> : null}
          <SelectInput
            id="add-device-type"
            label={t('add_device.device_type')}
            value={deviceType}
            onChange={(e) => setDeviceType(e.target.value)}
            helperText={t('add_device.device_type_hint')}
            disabled={busy}
          >
            {(choices.length > 0 ? choices : fleet.deviceType ? [{ slug: fleet.deviceType.slug, name: fleet.deviceType.slug }] : []).map((d) => (
              <option key={d.slug} value={d.slug}>
                {d.name}
              </option>
            ))}
          </SelectInput>
          <TextInput
            id="add-device-key-name"
            label={t('add_device.key_name')}
            value={keyName}
            onChange={(e) => setKeyName(e.target.value)}
            autoComplete="off"
            disabled={busy || key !== null}
            inputProps={{ maxLength: 255 }}
          />
          <ExpiryField
            id="add-device-key-expiry"
            labels={{
              expiry: t('add_device.key_expiry'),
              days: (count) => t('add_device.key_expiry_days', { count }),
              custom: t('add_device.key_expiry_custom'),
              neverWarning: t('add_device.key_never_warning'),
            }}
            value={expiry}
            onChange={setExpiry}
            disabled={busy || key !== null}
          />
          {key !== null ? <Typography color="text.secondary">{t('add_device.key_fixed')}</Typography> : null}
          <Tabs value={way} onChange={(_e, next: Way) => setWay(next)} aria-label={t('add_device.ways')} variant="scrollable" allowScrollButtonsMobile>
            <Tab value="linux" label={t('add_device.tab_linux')} id="add-device-tab-linux" aria-controls="add-device-panel-linux" />
            <Tab value="balenaos" label={t('add_device.tab_balenaos')} id="add-device-tab-balenaos" aria-controls="add-device-panel-balenaos" />
          </Tabs>
          {way === 'linux' ? (
            <Box role="tabpanel" id="add-device-panel-linux" aria-labelledby="add-device-tab-linux">
              <Stack spacing={2}>
                <Typography>{t('add_device.linux_needs')}</Typography>
                {command === null ? (
                  <Box>
                    <Button
                      variant="contained"
                      loading={mint.isPending}
                      disabled={expiryError !== undefined || deviceType === ''}
                      onClick={() => mint.mutate(keyRequest(), { onSuccess: (value) => setKey(value) })}
                    >
                      {t('add_device.generate')}
                    </Button>
                  </Box>
                ) : (
                  <>
                    <TextInput
                      id="add-device-command"
                      label={t('add_device.command')}
                      value={command}
                      readOnly
                      multiline
                      onFocus={(e) => (e.currentTarget as HTMLTextAreaElement).select()}
                      helperText={t('add_device.command_hint')}
                      sx={{ fontFamily: 'monospace' }}
                    />
                    <Box>
                      <Button variant="outlined" onClick={() => void copy()}>
                        {t('add_device.copy_command')}
                      </Button>
                    </Box>
                  </>
                )}
                {mint.isError ? <Alert severity="error">{t('add_device.key_failed', { message: errorMessage(mint.error, t) })}</Alert> : null}
                <Typography variant="subtitle2" component="h3">
                  {t('add_device.systemd_title')}
                </Typography>
                <Typography color="text.secondary">{t('add_device.systemd_body')}</Typography>
                <Box
                  component="pre"
                  aria-label={t('add_device.systemd_title')}
                  sx={{ m: 0, p: 1.5, bgcolor: 'action.hover', borderRadius: 1, overflowX: 'auto', fontSize: 13 }}
                >
                  {SYSTEMD_UNIT_EXAMPLE}
                </Box>
              </Stack>
            </Box>
          ) : (
            <Box role="tabpanel" id="add-device-panel-balenaos" aria-labelledby="add-device-tab-balenaos">
              <Stack spacing={2}>
                <Typography>{t('add_device.balenaos_body')}</Typography>
                <Box>
                  <Button
                    variant="contained"
                    loading={config.isPending}
                    disabled={expiryError !== undefined || deviceType === ''}
                    onClick={() =>
                      config.mutate(
                        { deviceType, ...keyRequest() },
                        {
                          onSuccess: (value) => {
                            downloadJson('config.json', value);
                            notify.success(t('add_device.downloaded'));
                          },
                        },
                      )
                    }
                  >
                    {t('add_device.download_config')}
                  </Button>
                </Box>
                {config.isError ? <Alert severity="error">{t('add_device.config_failed', { message: errorMessage(config.error, t) })}</Alert> : null}
              </Stack>
            </Box>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy}>
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
