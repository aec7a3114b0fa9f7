import { Alert, Button, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DefinitionRows } from '../../../components/definition-rows';
import { SelectInput } from '../../../components/form-fields';
import { errorMessage } from '../../../lib/errors';
import { useDeployContract } from '../api/get-deploy-contract';
import { useDeployFleets } from '../api/get-deploy-fleets';
import type { DeployRequest } from '../deploy-request';

interface Props {
  request: DeployRequest;
  onUseFleet: (fleetId: number) => void;
  onCreateNew: () => void;
}

/** What the deep link asks for, the repository's contract, and the fleet choice (spec 2 §2). */
export function DeployPanel({ request, onUseFleet, onCreateNew }: Props) {
  const { t } = useTranslation();
  const contract = useDeployContract(request.repoUrl);
  const fleets = useDeployFleets();
  const [choice, setChoice] = useState('');
  const fleetId = choice || String(fleets.data?.[0]?.id ?? '');
  const rows: [string, ReactNode][] = [
    ...(request.repoUrl ? [[t('deploy.repository'), request.repoUrl] as [string, ReactNode]] : []),
    ...(request.tarballUrl ? [[t('deploy.tarball'), request.tarballUrl] as [string, ReactNode]] : []),
    ...(request.configUrl ? [[t('deploy.config'), request.configUrl] as [string, ReactNode]] : []),
    [t('deploy.default_device_type'), contract.data?.defaultDeviceType ?? request.defaultDeviceType],
  ];
  return (
    <Stack spacing={2} sx={{ maxWidth: 720 }}>
      <Paper variant="outlined" component="section" aria-label={t('deploy.source')} sx={{ p: 2 }}>
        <DefinitionRows rows={rows} />
        {request.repoUrl && (
          <Stack sx={{ mt: 2 }}>
            {contract.isPending && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <CircularProgress size={18} aria-hidden />
                <Typography variant="body2">{t('deploy.contract_loading')}</Typography>
              </Stack>
            )}
            {contract.isError && <Alert severity="error">{errorMessage(contract.error, t)}</Alert>}
            {contract.data && <Alert severity="success">{t('deploy.contract_name', { name: contract.data.name })}</Alert>}
          </Stack>
        )}
      </Paper>
      <Paper variant="outlined" component="section" aria-label={t('deploy.choose')} sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {t('deploy.choose')}
        </Typography>
        <Stack spacing={2}>
          <Typography variant="subtitle1" component="h3">
            {t('deploy.use_existing')}
          </Typography>
          {fleets.isError && <Alert severity="error">{t('deploy.fleets_failed')}</Alert>}
          {fleets.data?.length === 0 && <Typography color="text.secondary">{t('deploy.no_fleets')}</Typography>}
          {fleets.data && fleets.data.length > 0 && (
            <Stack direction="row" spacing={1}>
              <SelectInput id="deploy-fleet" label={t('deploy.fleet')} value={fleetId} onChange={(e) => setChoice(e.target.value)}>
                {fleets.data.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.name}
                  </option>
                ))}
              </SelectInput>
              <Button variant="contained" sx={{ flexShrink: 0 }} disabled={!fleetId} onClick={() => onUseFleet(Number(fleetId))}>
                {t('deploy.go_to_fleet')}
              </Button>
            </Stack>
          )}
          <Typography variant="subtitle1" component="h3">
            {t('deploy.create_new')}
          </Typography>
          <Button variant="outlined" sx={{ alignSelf: 'flex-start' }} onClick={onCreateNew}>
            {t('deploy.create_new')}
          </Button>
          <Typography variant="body2" color="text.secondary">
            {t('deploy.valid_for')}
          </Typography>
        </Stack>
      </Paper>
    </Stack>
  );
}
