import { useTranslation } from 'react-i18next';
import { GrantAccessDialog } from '../../../components/grant-access-dialog';
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

/** Assign fleets (or apps, or blocks) of the organization to a team with one access role. */
export function AssignApplicationsDialog({ organizationId, teamId, appClass, assignedIds, onClose }: Props) {
  const { t } = useTranslation();
  const apps = useOrganizationApplications(organizationId, appClass);
  const add = useAddTeamAccess();
  const kind = t(`teams.${appClass}s`);
  return (
    <GrantAccessDialog
      title={t('teams.assign_title', { kind })}
      submitLabel={t('teams.assign_submit')}
      itemsLabel={kind}
      items={apps.data?.filter((a) => !assignedIds.has(a.id)).map((a) => ({ id: a.id, name: a.app_name }))}
      emptyText={t('teams.nothing_to_assign')}
      roleOptions={APPLICATION_ROLES.map((r) => ({ value: r, label: t(`teams.role_${r}`) }))}
      onSubmit={async (applicationIds, roleName) => {
        await add.mutateAsync({ teamId, applicationIds, roleName });
        return t('teams.resources_added');
      }}
      onClose={onClose}
    />
  );
}
