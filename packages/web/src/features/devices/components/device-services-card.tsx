import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { Tooltip } from '../../../components/lazy-tooltip';
import Typography from '@mui/material/Typography';
import { useIsMutating, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import '../i18n-summary';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useNotify } from '../../../lib/notify';
import { deviceServicesKey, runServiceAction, useDeviceServices, type DeviceService, type ServiceInstall } from '../api/device-services';
import type { DeviceDetails } from '../api/get-device';
import { deviceActionKey } from '../api/keys';
import { isUpdateLocked } from '../device-rules';
import { containerControlsShown, containerTone, SERVICE_ACTIONS, serviceActionDisabledReason, showsDownloadProgress, type ServiceAction } from '../service-rules';
import { UpdateLockDialog } from './update-lock-dialog';

const TONE_COLOUR = { good: 'success', bad: 'error', progress: 'info' } as const;

interface Pending {
  service: string;
  imageId: number;
  action: ServiceAction;
}

/**
 * The summary's services card (spec 2 §2, §4 "Container status", §5 container controls):
 * each service of the device with its status, release and download progress, and start,
 * stop and restart when the supervisor or the service count allow them. Loaded lazily.
 */
export function DeviceServicesCard({ device, can }: { device: DeviceDetails; can: (permission: string) => boolean }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const target = device.pinned ?? device.fleet.target;
  const services = useDeviceServices(device.uuid, target?.id ?? null);
  const busy = useIsMutating({ mutationKey: deviceActionKey(device.uuid) }) > 0;
  const [confirmStop, setConfirmStop] = useState<Pending | null>(null);
  const [locked, setLocked] = useState<Pending | null>(null);
  const label = (p: Pending) => t('devices.service_action_label', { action: t(`devices.service_${p.action}`), service: p.service });

  const mutation = useMutation({
    mutationKey: deviceActionKey(device.uuid),
    mutationFn: ({ p, force }: { p: Pending; force: boolean }) => runServiceAction({ deviceId: device.id, appId: device.fleet.id }, p.action, p.imageId, force),
    onSuccess: (_, { p }) => notify.success(t('devices.service_action_done', { action: label(p) })),
    onError: (err, { p, force }) => {
      if (!force && isUpdateLocked(err)) setLocked(p);
      else notify.error(err);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceServicesKey(device.uuid) }),
  });
  const run = (p: Pending, force = false) => mutation.mutateAsync({ p, force }).catch(() => undefined);

  const list = services.data ?? [];
  const showControls = containerControlsShown(device.supervisor_version, list.length);
  const allowed = can('resin.device.update');

  return (
    <Paper variant="outlined" component="section" aria-label={t('devices.services')} sx={{ p: 2, minWidth: 0 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {t('devices.services')}
      </Typography>
      {services.isError ? (
        <Typography color="error">{t('devices.services_failed')}</Typography>
      ) : services.isPending ? (
        <LinearProgress aria-label={t('devices.services')} />
      ) : list.length === 0 ? (
        <Typography color="text.secondary">{t('devices.services_none')}</Typography>
      ) : (
        <Stack component="ul" spacing={1.5} sx={{ m: 0, p: 0, listStyle: 'none' }}>
          {list.map((service) => (
            <ServiceRow
              key={service.name}
              service={service}
              controls={
                showControls
                  ? (install) => (
                      // Wraps under the service's facts when the card is narrow (issue 11: it overflowed at 1440 px).
                      <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1 }}>
                        {SERVICE_ACTIONS.map((action) => {
                          const reason = serviceActionDisabledReason(action, { allowed, busy, isOnline: device.is_online, status: install.status });
                          const p = { service: service.name, imageId: install.imageId, action };
                          const button = (
                            <Button
                              size="small"
                              variant="outlined"
                              color={action === 'stop' ? 'error' : 'primary'}
                              disabled={reason !== undefined}
                              aria-label={label(p)}
                              onClick={() => (action === 'stop' ? setConfirmStop(p) : void run(p))}
                            >
                              {t(`devices.service_${action}`)}
                            </Button>
                          );
                          return reason ? (
                            <Tooltip key={action} title={t(`devices.${reason}`)} describeChild>
                              <span style={{ display: 'inline-flex' }} tabIndex={0}>
                                {button}
                              </span>
                            </Tooltip>
                          ) : (
                            <span key={action}>{button}</span>
                          );
                        })}
                      </Stack>
                    )
                  : undefined
              }
            />
          ))}
        </Stack>
      )}
      {confirmStop ? (
        <ConfirmDialog
          title={t('devices.service_stop_title', { service: confirmStop.service })}
          body={t('devices.service_stop_body')}
          confirmLabel={t('devices.service_stop')}
          onConfirm={async () => {
            const p = confirmStop;
            setConfirmStop(null);
            await run(p);
          }}
          onClose={() => setConfirmStop(null)}
        />
      ) : null}
      {locked ? (
        <UpdateLockDialog
          action={label(locked)}
          onForce={async () => {
            const p = locked;
            setLocked(null);
            await run(p, true);
          }}
          onClose={() => setLocked(null)}
        />
      ) : null}
    </Paper>
  );
}

function ServiceRow({ service, controls }: { service: DeviceService; controls?: (install: ServiceInstall) => ReactNode }) {
  const { t } = useTranslation();
  if (service.installs.length === 0) {
    return (
      <Stack component="li" direction="row" spacing={2} sx={{ alignItems: 'center' }} aria-label={service.name}>
        <Typography sx={{ fontWeight: 500, minWidth: 120 }}>{service.name}</Typography>
        <Typography variant="body2" color="text.secondary">
          {t('devices.service_not_installed')}
        </Typography>
      </Stack>
    );
  }
  return (
    <Stack component="li" spacing={1} aria-label={service.name}>
      {service.installs.map((install) => {
        const tone = containerTone(install.status);
        const progress = showsDownloadProgress(install.status) ? Math.min(100, Math.max(0, install.downloadProgress ?? 0)) : undefined;
        return (
          <Stack key={install.imageId} direction="row" useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', columnGap: 2, rowGap: 1, minWidth: 0 }}>
            <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>{service.name}</Typography>
            <Chip size="small" variant="outlined" color={TONE_COLOUR[tone]} label={install.status} data-tone={tone} />
            <Typography variant="body2" color="text.secondary">
              {install.release ? t('devices.service_release', { version: install.release.raw_version }) : t('devices.none')}
            </Typography>
            {progress !== undefined ? (
              <Stack spacing={0.5} sx={{ minWidth: 160 }}>
                <LinearProgress variant="determinate" value={progress} aria-label={t('devices.service_progress', { service: service.name, progress })} />
                <Typography variant="caption">{progress}%</Typography>
              </Stack>
            ) : null}
            <Stack sx={{ flex: 1 }} />
            {controls?.(install)}
          </Stack>
        );
      })}
    </Stack>
  );
}
