import { Alert, Button, FormControlLabel, Stack, Switch, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextInput } from '../../../components/form-fields';
import { SelectSetting } from '../../../components/select-setting';
import { PermissionTooltip } from '../../../components/permission-tooltip';
import { useRunMutation } from '../../../lib/notify';
import type { FleetChange, FleetPatch } from '../api/fleet-changes';
import { useCompatibleDeviceTypes } from '../api/get-compatible-device-types';
import type { FleetSettings } from '../api/get-fleet-settings';
import { SettingRow } from '../../../components/setting-row';

interface Props {
  fleet: FleetSettings;
  canUpdate: boolean;
  change: (c: FleetChange) => Promise<void>;
}

/** Repository URL, public visibility and default device type (spec 2 §2 settings, §5). */
export function VisibilitySettings({ fleet, canUpdate, change }: Props) {
  const { t } = useTranslation();
  const run = useRunMutation();
  const [repoUrl, setRepoUrl] = useState(fleet.is_stored_at__repository_url ?? '');
  const [busy, setBusy] = useState<keyof FleetPatch | null>(null);
  const deviceTypes = useCompatibleDeviceTypes(fleet.deviceType?.cpuArchitecture?.id);
  // Spec 2 §5: public visibility of legacy-type apps needs a repository URL first.
  const publicBlocked = !!fleet.applicationType?.is_legacy && !fleet.is_stored_at__repository_url;

  const save = async (field: keyof FleetPatch, body: FleetPatch) => {
    setBusy(field);
    await run(() => change({ kind: 'patch', body }), { success: t('fleet_settings.setting_changed') });
    setBusy(null);
  };

  const savedRepoUrl = fleet.is_stored_at__repository_url ?? '';
  return (
    <>
      <SettingRow title={t('fleet_settings.repository_url')} description={t('fleet_settings.repository_url_description')}>
        <Stack direction="row" spacing={1} sx={{ width: '100%' }}>
          <TextInput
            id="fleet-repository-url"
            label={t('fleet_settings.repository_url')}
            value={repoUrl}
            onChange={(e) => setRepoUrl(e.target.value)}
            disabled={!canUpdate}
            type="url"
            autoComplete="off"
          />
          <PermissionTooltip allowed={canUpdate}>
            <Button
              variant="outlined"
              disabled={!canUpdate || repoUrl.trim() === savedRepoUrl}
              loading={busy === 'is_stored_at__repository_url'}
              onClick={() => void save('is_stored_at__repository_url', { is_stored_at__repository_url: repoUrl.trim() || null })}
            >
              {t('common.save')}
            </Button>
          </PermissionTooltip>
        </Stack>
      </SettingRow>
      <SettingRow title={t('fleet_settings.public')} description={t('fleet_settings.public_description')}>
        <PermissionTooltip allowed={canUpdate}>
          <FormControlLabel
            control={
              <Switch
                checked={fleet.is_public}
                disabled={!canUpdate || publicBlocked || busy === 'is_public'}
                onChange={(e) => void save('is_public', { is_public: e.target.checked })}
              />
            }
            label={t('fleet_settings.public_label')}
          />
        </PermissionTooltip>
        {publicBlocked && <Typography variant="body2">{t('fleet_settings.public_needs_repo')}</Typography>}
      </SettingRow>
      <SelectSetting
        title={t('fleet_settings.device_type')}
        description={t('fleet_settings.device_type_description')}
        id="fleet-default-device-type"
        current={String(fleet.deviceType?.id ?? '')}
        options={[
          ...(fleet.deviceType && !deviceTypes.data ? [{ value: String(fleet.deviceType.id), label: fleet.deviceType.name }] : []),
          ...(deviceTypes.data ?? []).map((d) => ({ value: String(d.id), label: d.name })),
        ]}
        allowed={canUpdate}
        disabled={!deviceTypes.data}
        onSave={(id) => change({ kind: 'patch', body: { is_for__device_type: Number(id) } })}
        success={() => t('fleet_settings.setting_changed')}
        intro={<Alert severity="info">{t('fleet_settings.device_type_mixing', { architecture: fleet.deviceType?.cpuArchitecture?.slug ?? '—' })}</Alert>}
      />
    </>
  );
}
