import { Alert, Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PermissionTooltip } from '../../../components/permission-tooltip';
import { useRunMutation } from '../../../lib/notify';
import type { FleetChange } from '../api/fleet-changes';
import type { FleetSettings } from '../api/get-fleet-settings';
import { isClassicOrLegacy, supportAccessState } from '../fleet-settings-rules';
import { DateText } from './details-list';
import { RenameFleetDialog } from './rename-fleet-dialog';
import { GrantSupportDialog } from '../../../components/grant-support-dialog';
import { SettingRow } from '../../../components/setting-row';

interface Props {
  fleet: FleetSettings;
  /** resin.application.update (spec 2 §6: rename, support access, repo URL, public, device type, pin). */
  canUpdate: boolean;
  change: (c: FleetChange) => Promise<void>;
}

/** Rename and support access (spec 2 §2 settings, §4, §5). */
export function IdentitySettings({ fleet, canUpdate, change }: Props) {
  const { t, i18n } = useTranslation();
  const run = useRunMutation();
  const [dialog, setDialog] = useState<'rename' | 'grant' | null>(null);
  const [revoking, setRevoking] = useState(false);
  const renameBlocked = isClassicOrLegacy(fleet.applicationType);
  const until = fleet.is_accessible_by_support_until__date;
  const support = supportAccessState(until, new Date());

  const revoke = async () => {
    setRevoking(true);
    await run(() => change({ kind: 'revoke-support' }), { success: t('fleet_settings.support_revoked') });
    setRevoking(false);
  };

  return (
    <>
      <SettingRow title={t('common.rename')} description={t('fleet_settings.rename_description')}>
        <PermissionTooltip allowed={canUpdate}>
          <Button variant="outlined" disabled={!canUpdate || renameBlocked} onClick={() => setDialog('rename')}>
            {t('common.rename')}
          </Button>
        </PermissionTooltip>
        {renameBlocked && <Typography variant="body2">{t('fleet_settings.rename_blocked')}</Typography>}
      </SettingRow>
      <SettingRow title={t('fleet_settings.support_access')} description={t('fleet_settings.support_description')}>
        <Typography role="status">
          {t(`fleet_summary.support_${support}`)}
          {until && support !== 'off' && (
            <>
              {' '}
              (<DateText value={until} language={i18n.language} time />)
            </>
          )}
        </Typography>
        <Stack direction="row" spacing={1}>
          <PermissionTooltip allowed={canUpdate}>
            <Button variant="outlined" disabled={!canUpdate} onClick={() => setDialog('grant')}>
              {support === 'on' ? t('fleet_settings.support_extend') : t('fleet_settings.support_grant')}
            </Button>
          </PermissionTooltip>
          {support === 'on' && (
            <PermissionTooltip allowed={canUpdate}>
              <Button variant="outlined" color="error" disabled={!canUpdate} loading={revoking} onClick={() => void revoke()}>
                {t('fleet_settings.support_revoke')}
              </Button>
            </PermissionTooltip>
          )}
        </Stack>
        {support === 'expired' && <Alert severity="info">{t('fleet_settings.support_expired_hint')}</Alert>}
      </SettingRow>
      {dialog === 'rename' && (
        <RenameFleetDialog
          currentName={fleet.app_name}
          onClose={() => setDialog(null)}
          onRename={(name) => change({ kind: 'rename', name })}
        />
      )}
      {dialog === 'grant' && (
        <GrantSupportDialog
          inputId="support-access-until"
          futureText={t('fleet_settings.support_date_future')}
          success={t('fleet_settings.support_granted')}
          onGrant={(date) => change({ kind: 'grant-support', until: date.getTime() })}
          onClose={() => setDialog(null)}
        />
      )}
    </>
  );
}
