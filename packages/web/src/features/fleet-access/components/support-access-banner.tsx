import { Alert } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { FleetAccess } from '../../../lib/fleet-access';
import { formatDate } from '../../../lib/date-format';

/**
 * Spec 1 §6, spec 3 §6: provider staff looking at a fleet they hold no role on are told
 * whether its owners granted support access (and until when). Nobody else sees it.
 */
export function SupportAccessBanner({ access, supportUntil, now = new Date() }: { access: FleetAccess; supportUntil: string | null; now?: Date }) {
  const { t } = useTranslation();
  if (access.staff === null || (access.role !== undefined && access.role !== 'member')) return null;
  const until = supportUntil ? new Date(supportUntil) : null;
  if (until && until.getTime() > now.getTime()) {
    const date = formatDate(until);
    return (
      <Alert severity="info" role="status">
        {t('fleet.support_granted_until', { date })}
      </Alert>
    );
  }
  return (
    <Alert severity="warning" role="alert">
      {t('fleet.support_not_granted')}
    </Alert>
  );
}
