import { Chip } from '@mui/material';
import type { ReleaseStatus } from '@flotilla/model';
import { useTranslation } from 'react-i18next';
import { statusColour } from '../release-view';

/** A release status (spec 2 §4) as a coloured chip; pass the shown status (timeout applied). */
export function ReleaseStatusChip({ status }: { status: ReleaseStatus }) {
  const { t } = useTranslation();
  return <Chip size="small" color={statusColour(status)} label={t(`releases.status_${status}`)} />;
}
