import { Checkbox, FormControlLabel, FormGroup, FormHelperText, Skeleton, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog';
import { SelectInput } from '../../../components/form-fields';
import { useNotify } from '../../../lib/notify';
import { useAddTeamAccess } from '../api/add-team-access';
import { APPLICATION_ROLES } from '../api/get-application-roles';
import { useOrganizationApplications, type ApplicationClass } from '../api/get-organization-applications';

interface Props {
  organizationId: number;
  teamId: number;
  appClass: ApplicationClass;
  /** Applications the team already has access to (not offered again). */
  assignedIds: ReadonlySet<number>;
  onClose: () => void;
}

/** Assign fleets (or blocks) of the organization to a team with one access role. */
export function AssignApplicationsDialog({ organizationId, teamId, appClass, assignedIds, onClose }: Props) {
  const { t } = useTranslation();
  const notify = useNotify();
  const apps = useOrganizationApplications(organizationId, appClass);
  const add = useAddTeamAccess();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [role, setRole] = useState('');
  const [error, setError] = useState<string>();
  const available = (apps.data ?? []).filter((a) => !assignedIds.has(a.id));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    // Spec 1 §8: assigning nothing is 'no target received'.
    if (selected.size === 0) return setError(t('teams.no_target_received'));
    if (!role) return setError(t('teams.role_required'));
    try {
      await add.mutateAsync({ teamId, applicationIds: [...selected], roleName: role });
      notify.success(t('teams.resources_added'));
      onClose();
    } catch (err) {
      notify.error(err);
    }
  };

  const kind = appClass === 'fleet' ? t('teams.fleets') : t('teams.blocks');
  return (
    <FormDialog
      open
      title={t('teams.assign_title', { kind })}
      submitLabel={t('teams.assign_submit')}
      cancelLabel={t('teams.cancel')}
      submitting={add.isPending}
      onSubmit={(e) => void onSubmit(e)}
      onClose={onClose}
    >
      {apps.isPending ? (
        <Skeleton />
      ) : available.length === 0 ? (
        <Typography color="text.secondary">{t('teams.nothing_to_assign')}</Typography>
      ) : (
        <FormGroup aria-label={kind}>
          {available.map((a) => (
            <FormControlLabel
              key={a.id}
              label={a.app_name}
              control={
                <Checkbox
                  checked={selected.has(a.id)}
                  onChange={(e) => {
                    const next = new Set(selected);
                    if (e.target.checked) next.add(a.id);
                    else next.delete(a.id);
                    setSelected(next);
                    setError(undefined);
                  }}
                />
              }
            />
          ))}
        </FormGroup>
      )}
      <SelectInput id="team-access-role" label={t('teams.access_role')} value={role} onChange={(e) => setRole(e.target.value)}>
        <option value="">{t('teams.choose_role')}</option>
        {APPLICATION_ROLES.map((r) => (
          <option key={r} value={r}>
            {t(`teams.role_${r}`)}
          </option>
        ))}
      </SelectInput>
      {error && <FormHelperText error>{error}</FormHelperText>}
    </FormDialog>
  );
}
