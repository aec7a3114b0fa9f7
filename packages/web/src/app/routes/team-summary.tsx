import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { RedirectWithError } from '../../components/redirect-with-error';
import { useMyOrganizationMembership } from '../../features/organizations/api/get-my-organization-membership';
import { useOrganizationMembers } from '../../features/organizations/api/get-organization-members';
import { useAppsEnabled } from '../../features/preferences/api/get-apps-enabled';
import { TEAM_TABS, TeamSummaryPage } from '../../features/teams/pages/team-summary-page';
import { parseRouteId } from '../../lib/route-id';
import { paths } from '../../lib/paths';

/**
 * /orgs/{orgId}/teams/{teamId}[/members|fleets|apps|blocks] (spec 1 §2). A non-numeric
 * organization id goes up to /orgs, a non-numeric team id up to the teams list.
 */
export function TeamSummaryRoute() {
  const { t } = useTranslation();
  const params = useParams();
  const orgId = parseRouteId(params.orgId);
  const teamId = parseRouteId(params.teamId);
  if (orgId === undefined) return <RedirectWithError to={paths.organizations()} message={t('invalid_id_passed_in_url')} />;
  if (teamId === undefined) return <RedirectWithError to={paths.organization(orgId, 'teams')} message={t('invalid_id_passed_in_url')} />;
  const tab = TEAM_TABS.find((x) => x === params.tab);
  if (params.tab !== undefined && tab === undefined) return <RedirectWithError to={paths.organizationTeam(orgId, teamId)} message={t('teams.unknown_tab')} />;
  return <TeamRoute key={teamId} orgId={orgId} teamId={teamId} tab={tab} />;
}

/** Composes the teams feature's page with what it needs from the organizations feature. */
function TeamRoute({ orgId, teamId, tab }: { orgId: number; teamId: number; tab: (typeof TEAM_TABS)[number] | undefined }) {
  const mine = useMyOrganizationMembership(orgId);
  const members = useOrganizationMembers(orgId);
  const appsEnabled = useAppsEnabled();
  // Plain values, read here: the page re-renders whenever one of them changes.
  const membership = { isError: mine.isError, isPending: mine.isPending, data: mine.data, refetch: mine.refetch };
  return <TeamSummaryPage orgId={orgId} teamId={teamId} tab={tab} organization={{ membership, members: members.data, appsEnabled }} />;
}
