import { ListItem, ListItemText } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { OrganizationFleet } from '../api/get-organization-fleets';
import { SummaryListCard } from '../../../components/summary-list-card';

export function OrganizationFleetsList({ fleets, loading, failed }: { fleets: OrganizationFleet[] | undefined; loading: boolean; failed: boolean }) {
  const { t } = useTranslation();
  return (
    <SummaryListCard
      title={t('org_summary.fleets')}
      loading={loading}
      error={failed ? t('org_summary.fleets_failed') : undefined}
      empty={fleets?.length === 0 ? t('org_summary.fleets_empty') : undefined}
    >
      {fleets?.map((f) => (
        <ListItem key={f.id} divider>
          <ListItemText primary={f.app_name} secondary={f.slug} />
        </ListItem>
      ))}
    </SummaryListCard>
  );
}
