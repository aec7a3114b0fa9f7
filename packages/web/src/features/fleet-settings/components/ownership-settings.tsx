import { Alert, Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { SelectInput } from '../../../components/form-fields';
import { PermissionTooltip } from '../../../components/permission-tooltip';
import { useDeleteFleet, type FleetChange } from '../api/fleet-changes';
import { useFleetDeviceCounts } from '../api/get-fleet-device-counts';
import type { FleetSettings } from '../api/get-fleet-settings';
import { useTransferOrganizations } from '../api/get-transfer-organizations';
import { SettingRow } from '../../../components/setting-row';
import { TypeToConfirmDialog } from '../../../components/type-to-confirm-dialog';
import { paths } from '../../../lib/paths';

interface Props {
  fleet: FleetSettings;
  /** resin.application.transfer: without it the transfer setting is hidden (spec 2 §6). */
  canTransfer: boolean;
  canDelete: boolean;
  change: (c: FleetChange) => Promise<void>;
  /** After a delete: refresh the lists the user goes back to. */
  onDeleted: () => Promise<unknown> | void;
}

/** Transfer ownership and delete (spec 2 §2 settings, §5 "Fleets", destructive confirmations). */
export function OwnershipSettings({ fleet, canTransfer, canDelete, change, onDeleted }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const devices = useFleetDeviceCounts(fleet.id);
  const organizations = useTransferOrganizations(fleet.organization.id, canTransfer);
  const remove = useDeleteFleet(fleet.id);
  const [target, setTarget] = useState('');
  const [dialog, setDialog] = useState<'transfer' | 'delete' | null>(null);
  const deviceCount = devices.data?.total;
  const hasDevices = deviceCount === undefined || deviceCount > 0;
  const targetOrg = organizations.data?.find((o) => String(o.id) === target) ?? organizations.data?.[0];
  const className = t(`fleet.class_${fleet.is_of__class}`).toLowerCase();

  return (
    <>
      {canTransfer && (
        <SettingRow title={t('fleet_settings.transfer')} description={t('fleet_settings.transfer_description')}>
          {organizations.data?.length === 0 ? (
            <Typography>{t('fleet_settings.transfer_no_organizations')}</Typography>
          ) : (
            <Stack direction="row" spacing={1} sx={{ width: '100%' }}>
              <SelectInput
                id="fleet-transfer-organization"
                label={t('fleet_settings.transfer_target')}
                value={target || String(targetOrg?.id ?? '')}
                onChange={(e) => setTarget(e.target.value)}
                disabled={!organizations.data || hasDevices}
              >
                {organizations.data?.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </SelectInput>
              <Button variant="outlined" color="warning" disabled={!targetOrg || hasDevices} onClick={() => setDialog('transfer')}>
                {t('fleet_settings.transfer_submit')}
              </Button>
            </Stack>
          )}
          {deviceCount !== undefined && deviceCount > 0 && <Alert severity="info">{t('fleet_settings.transfer_has_devices', { count: deviceCount })}</Alert>}
        </SettingRow>
      )}
      <SettingRow title={t('common.delete')} description={t('fleet_settings.delete_description', { kind: className })}>
        <PermissionTooltip allowed={canDelete}>
          <Button variant="contained" color="error" disabled={!canDelete || deviceCount === undefined} onClick={() => setDialog('delete')}>
            {t('fleet_settings.delete_submit', { kind: className })}
          </Button>
        </PermissionTooltip>
      </SettingRow>
      {dialog === 'transfer' && targetOrg && (
        <ConfirmDialog
          title={t('fleet_settings.transfer_title')}
          body={t('fleet_settings.transfer_warning', { name: fleet.app_name, organization: targetOrg.name })}
          confirmLabel={t('fleet_settings.transfer_submit')}
          onClose={() => setDialog(null)}
          onConfirm={() => change({ kind: 'patch', body: { organization: targetOrg.id } })}
          success={t('fleet_settings.transferred', { organization: targetOrg.name })}
        />
      )}
      {dialog === 'delete' && deviceCount !== undefined && (
        <TypeToConfirmDialog
          title={t('fleet_settings.delete_title', { name: fleet.app_name })}
          warning={t('fleet_settings.delete_warning', { count: deviceCount, name: fleet.app_name })}
          expected={fleet.app_name}
          inputId="delete-fleet-confirm"
          label={t('fleet_settings.delete_confirm_label')}
          hint={t('fleet_settings.delete_confirm_hint', { name: fleet.app_name })}
          emptyHint={t('fleet_settings.all_fields_required')}
          submitLabel={t('fleet_settings.delete_submit', { kind: className })}
          onClose={() => setDialog(null)}
          onConfirm={async () => {
            await remove.mutateAsync();
            await onDeleted();
          }}
          success={t('fleet_settings.deleted', { name: fleet.app_name })}
          onSuccess={() => void navigate(paths.applications(fleet.is_of__class))}
        />
      )}
    </>
  );
}
