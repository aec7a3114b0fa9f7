import { Alert, Button, Stack } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApplicationWarnings } from '../api/get-application-warnings';

const loadDialog = () => import('./change-application-type-dialog');
const ChangeApplicationTypeDialog = lazy(async () => ({ default: (await loadDialog()).ChangeApplicationTypeDialog }));

/**
 * Spec 2 §2: warnings for a discontinued device type and for a legacy application type; the
 * upgrade-type action only for users who hold resin.application.change-type.
 */
export function ApplicationWarnings({ applicationId, canChangeType }: { applicationId: number; canChangeType: boolean }) {
  const { t } = useTranslation();
  const facts = useApplicationWarnings(applicationId);
  const [upgrading, setUpgrading] = useState(false);
  if (!facts.data) return null;
  const { discontinuedDeviceType, legacyType } = facts.data;
  if (!discontinuedDeviceType && !legacyType) return null;
  return (
    <Stack spacing={1}>
      {discontinuedDeviceType && <Alert severity="warning">{t('fleets.warning_discontinued', { name: discontinuedDeviceType })}</Alert>}
      {legacyType && (
        <Alert
          severity="warning"
          action={
            canChangeType ? (
              <Button color="inherit" size="small" onClick={() => setUpgrading(true)} onPointerEnter={() => void loadDialog()}>
                {t('fleets.upgrade_type')}
              </Button>
            ) : undefined
          }
        >
          {t('fleets.warning_legacy', { name: legacyType.name })}
        </Alert>
      )}
      {upgrading && (
        <Suspense fallback={null}>
          <ChangeApplicationTypeDialog applicationId={applicationId} onClose={() => setUpgrading(false)} />
        </Suspense>
      )}
    </Stack>
  );
}
