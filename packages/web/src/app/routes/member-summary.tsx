import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { RedirectWithError } from '../../components/redirect-with-error';
import { parseRouteId } from '../../lib/route-id';
import { paths } from '../../lib/paths';
import { MEMBER_TABS, MemberSummaryPage } from '../../features/organizations/pages/member-summary-page';
import { useAppsEnabled } from '../../features/preferences/api/get-apps-enabled';

/** /orgs/{orgId}/members/{memberId}[/teams|fleets|blocks]: memberId is the organization membership id. */
export function MemberSummaryRoute() {
  const { t } = useTranslation();
  const appsEnabled = useAppsEnabled();
  const params = useParams();
  const orgId = parseRouteId(params.orgId);
  const memberId = parseRouteId(params.memberId);
  if (orgId === undefined) return <RedirectWithError to={paths.organizations()} message={t('invalid_id_passed_in_url')} />;
  if (memberId === undefined) return <RedirectWithError to={paths.organization(orgId, 'members')} message={t('invalid_id_passed_in_url')} />;
  const tab = MEMBER_TABS.find((x) => x === params.tab);
  if (params.tab !== undefined && tab === undefined) {
    return <RedirectWithError to={paths.organizationMember(orgId, memberId)} message={t('invalid_id_passed_in_url')} />;
  }
  return <MemberSummaryPage key={memberId} orgId={orgId} memberId={memberId} tab={tab} appsEnabled={appsEnabled} />;
}
