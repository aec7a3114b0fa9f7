import { useTranslation } from 'react-i18next';
import { RelativeTime } from '../../../components/date-text';
import { lastSeen, type SeenFacts } from '../device-rules';

/** "Last seen" of a device: relative, the exact time on hover, live while it is online. */
export function LastSeen({ device }: { device: SeenFacts }) {
  const { t } = useTranslation();
  const seen = lastSeen(device);
  return <RelativeTime value={seen.now ? null : seen.at} isNow={seen.now} fallback={t('devices.never')} data-testid="device-last-seen" />;
}
