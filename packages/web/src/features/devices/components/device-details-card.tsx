import { frozenReasonOf } from '@flotilla/model';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { Tooltip } from '../../../components/lazy-tooltip';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { DefinitionRows } from '../../../components/definition-rows';
import { PermissionTooltip } from '../../../components/permission-tooltip';
import { useSetDeviceNote } from '../api/device-mutations';
import { useOsVersions } from '../api/os-catalogue';
import { useDeviceSummaryFacts } from '../api/device-summary-facts';
import { useDeviceTags, useInvalidateDeviceTags } from '../api/device-tags';
import type { DeviceDetails, ReleaseRef } from '../api/get-device';
import { DeviceNoteField } from './device-note-field';
import { DeviceFrozenBadge } from './device-frozen-badge';
import { DeviceStatusChip } from './device-status-chip';
import { LastSeen } from './last-seen';
import { addressList, formatElapsed, formatTimestamp } from './format';
import { paths } from '../../../lib/paths';
import { osBadge, type OsBadge } from '../os-badge';

// The rename form (react-hook-form, zod) loads when the dialog first opens.
const DeviceRenameDialog = lazy(async () => ({ default: (await import('./device-rename-dialog')).DeviceRenameDialog }));
// The tag manager loads when first opened.
const DeviceTagsDialog = lazy(async () => ({ default: (await import('./device-tags-dialog')).DeviceTagsDialog }));
// The OS update classification and supervisor status load after the first paint.
const DeviceOsSummary = lazy(async () => ({ default: (await import('./device-os/device-os-status')).DeviceOsSummary }));

const OS_LINE_BADGE = {
  next: { color: 'info', label: 'devices.os_line_next', hint: 'devices.os_line_next_hint' },
  current: { color: 'success', label: 'devices.os_line_current', hint: 'devices.os_line_current_hint' },
  sunset: { color: 'warning', label: 'devices.os_line_sunset', hint: 'devices.os_line_sunset_hint' },
  outdated: { color: 'error', label: 'devices.os_line_outdated', hint: 'devices.os_line_outdated_hint' },
  'end-of-life': { color: 'error', label: 'devices.os_line_end_of_life', hint: 'devices.os_line_end_of_life_hint' },
} as const satisfies Record<OsBadge['line'], { color: 'info' | 'success' | 'warning' | 'error'; label: string; hint: string }>;

/** The line's colour is the outline; the text stays the primary text colour (warning/info text on white fails WCAG contrast). */
const BADGE_TEXT = { color: 'text.primary' } as const;

/** Spec 2 §4 "Support access: on, expired or off, by its expiry date". */
function supportAccess(until: string | null, now: number): 'on' | 'expired' | 'off' {
  if (!until) return 'off';
  return Date.parse(until) > now ? 'on' : 'expired';
}

/**
 * The device info card of the summary (spec 2 §2 "Device summary card fields", those the
 * model holds): name with rename, fleet, status, cloud link, heartbeat, versions, releases,
 * support access, local mode, public URL, addresses, tags (tag manager) and the markdown note.
 * The OS line badge (line or end of life, and ESR) comes from the host OS catalogue read
 * through balena-sdk (`os.getAvailableOsVersions`; none for a non-balenaOS host), and below
 * the rows the OS update classification and supervisor status (spec 2 §4).
 */
export function DeviceDetailsCard({ device, can }: { device: DeviceDetails; can: (permission: string) => boolean }) {
  const { t } = useTranslation();
  const setNote = useSetDeviceNote(device.uuid);
  const [renaming, setRenaming] = useState(false);
  const [tagging, setTagging] = useState(false);
  const tags = useDeviceTags(device.uuid);
  const invalidateTags = useInvalidateDeviceTags(device.uuid);
  const facts = useDeviceSummaryFacts(device.uuid).data;
  const canUpdate = can('resin.device.update');
  const none = t('devices.none');
  const text = (value: string | null | undefined): ReactNode => (value ? value : none);
  const release = (r: ReleaseRef | null): ReactNode => (r ? `${r.raw_version} (${r.commit.slice(0, 7)})` : none);
  const target = device.pinned ?? device.fleet.target;
  const support = supportAccess(device.is_accessible_by_support_until__date, Date.now());
  const osVersions = useOsVersions(device.deviceType.slug);
  const badge = osVersions.data ? osBadge(device.os_version, osVersions.data) : undefined;

  const rows: [string, ReactNode][] = [
    [
      t('devices.name'),
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} component="span">
        <span>{device.device_name}</span>
        <PermissionTooltip allowed={canUpdate}>
          <Button size="small" disabled={!canUpdate} onClick={() => setRenaming(true)}>
            {t('common.rename')}
          </Button>
        </PermissionTooltip>
      </Stack>,
    ],
    [
      t('devices.fleet'),
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} component="span">
        <Link component={RouterLink} to={paths.application(device.fleet.is_of__class, device.fleet.id)}>
          {device.fleet.app_name}
        </Link>
        {/* Moving lives on the settings page (compatible fleets, warnings): the shortcut goes there. */}
        <PermissionTooltip allowed={canUpdate}>
          <Button size="small" disabled={!canUpdate} component={RouterLink} to={paths.device(device.uuid, 'settings')}>
            {t('devices.move')}
          </Button>
        </PermissionTooltip>
      </Stack>,
    ],
    [
      t('devices.status'),
      <>
        <DeviceStatusChip status={device.overall_status} progress={device.overall_progress} />
        <DeviceFrozenBadge reason={frozenReasonOf(device, device.fleet.organization.is_frozen)} />
      </>,
    ],
    [t('devices.cloud_link'), device.is_online ? t('devices.connected') : t('devices.disconnected')],
    [t('devices.heartbeat'), t(`devices.heartbeat_${device.api_heartbeat_state as 'online' | 'offline' | 'timeout' | 'unknown'}`, { defaultValue: device.api_heartbeat_state })],
    [t('devices.last_seen'), <LastSeen device={device} />],
    [t('devices.uuid'), <code>{device.uuid}</code>],
    [t('devices.device_type'), device.deviceType.name],
    [t('devices.update_status'), text(device.update_status)],
    [t('devices.update_status_since'), formatElapsed(device.last_update_status_event) ?? none],
    [
      t('devices.os_version'),
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} component="span">
        <span>{text(device.os_version)}</span>
        {badge ? (
          <Tooltip title={t(OS_LINE_BADGE[badge.line].hint)}>
            <Chip size="small" variant="outlined" color={OS_LINE_BADGE[badge.line].color} label={t(OS_LINE_BADGE[badge.line].label)} tabIndex={0} sx={BADGE_TEXT} />
          </Tooltip>
        ) : null}
        {badge?.esr ? (
          <Tooltip title={t('devices.os_line_esr_hint')}>
            <Chip size="small" variant="outlined" color="info" label={t('devices.os_line_esr')} tabIndex={0} sx={BADGE_TEXT} />
          </Tooltip>
        ) : null}
      </Stack>,
    ],
    [t('devices.os_variant'), text(device.os_variant)],
    [t('devices.supervisor_version'), text(device.supervisor_version)],
    [t('devices.current_release'), release(device.running)],
    [t('devices.target_release'), <>{release(target)}{device.pinned ? ` · ${t('devices.pinned')}` : ''}</>],
    [
      t('devices.support_access'),
      support === 'on'
        ? t('devices.support_on', { date: formatTimestamp(device.is_accessible_by_support_until__date) })
        : t(`devices.support_${support}`),
    ],
    [t('devices.is_active'), device.is_active ? t('devices.yes') : t('devices.no')],
    [t('devices.local_mode'), facts ? (facts.localMode ? t('devices.on') : t('devices.off')) : none],
    ...(facts?.webUrl
      ? ([[t('devices.public_url'), <Link href={facts.webUrl} target="_blank" rel="noopener noreferrer">{facts.webUrl}</Link>]] as [string, ReactNode][])
      : []),
    [t('devices.local_ip'), addressList(device.ip_address).join(', ') || none],
    [t('devices.public_ip'), addressList(device.public_address).join(', ') || none],
    [t('devices.mac_address'), addressList(device.mac_address).join(', ') || none],
    [
      t('devices.tags'),
      <Button size="small" variant="outlined" disabled={!tags.data} onClick={() => setTagging(true)} aria-haspopup="dialog">
        {t('devices.tags_count', { count: tags.data?.length ?? 0 })}
      </Button>,
    ],
  ];

  return (
    <Paper variant="outlined" component="section" aria-label={t('devices.details')} sx={{ p: 2, flex: 2, minWidth: 0 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {t('devices.details')}
      </Typography>
      <DefinitionRows rows={rows} />
      <Suspense fallback={null}>
        <DeviceOsSummary device={device} />
      </Suspense>
      <Stack sx={{ mt: 2 }} id="note">
        <DeviceNoteField initialValue={device.note ?? ''} disabled={!canUpdate} onSave={(note) => setNote.mutateAsync(note)} />
      </Stack>
      {tagging && tags.data ? (
        <Suspense fallback={null}>
          <DeviceTagsDialog
            uuid={device.uuid}
            deviceName={device.device_name}
            tags={tags.data}
            canEdit={can('resin.device_tag.all')}
            onSaved={invalidateTags}
            onClose={() => setTagging(false)}
          />
        </Suspense>
      ) : null}
      {renaming ? (
        <Suspense fallback={null}>
          <DeviceRenameDialog device={device} onClose={() => setRenaming(false)} />
        </Suspense>
      ) : null}
    </Paper>
  );
}
