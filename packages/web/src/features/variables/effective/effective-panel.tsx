import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { useEffectiveVariables, type EffectiveVariable, type VariableLevel } from './effective-api';
import './i18n';

const VALUE_SX = { fontFamily: 'monospace', wordBreak: 'break-all' } as const;

function LevelChip({ level }: { level: VariableLevel }) {
  const { t } = useTranslation();
  return <Chip size="small" variant="outlined" label={t(`variablesEffective.level_${level}`)} data-testid="variable-level" />;
}

function VariablesTable({ label, rows }: { label: string; rows: EffectiveVariable[] }) {
  const { t } = useTranslation();
  if (rows.length === 0) return <Typography color="text.secondary">{t('variablesEffective.none')}</Typography>;
  return (
    <DataTable<EffectiveVariable>
      label={label}
      rows={rows}
      getRowKey={(r) => r.name}
      columns={[
        { key: 'name', header: t('variablesEffective.name'), render: (r) => <Box component="span" sx={VALUE_SX}>{r.name}</Box> },
        {
          key: 'value',
          header: t('variablesEffective.value'),
          render: (r) => (
            <>
              <Box component="span" sx={VALUE_SX}>{r.value}</Box>
              {r.level === 'schema-default' ? (
                <Typography variant="caption" color="text.secondary" component="div">
                  {t('variablesEffective.default_not_sent')}
                </Typography>
              ) : null}
            </>
          ),
        },
        { key: 'level', header: t('variablesEffective.level'), render: (r) => <LevelChip level={r.level} /> },
        {
          key: 'overrides',
          header: t('variablesEffective.overrides'),
          render: (r) =>
            r.overrides.length === 0 ? null : (
              <Stack component="ul" spacing={0.5} sx={{ m: 0, p: 0, listStyle: 'none' }}>
                {r.overrides.map((o) => (
                  <Stack component="li" key={o.level} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <Box component="s" sx={VALUE_SX} aria-label={t('variablesEffective.overridden_value', { value: o.value })}>
                      {o.value}
                    </Box>
                    <LevelChip level={o.level} />
                  </Stack>
                ))}
              </Stack>
            ),
        },
      ]}
    />
  );
}

/**
 * "What this device gets" (issue 16): every variable the device receives, per service and for
 * configuration, with its effective value, the level that supplied it and the lower-level
 * values it overrides — computed by the server with the same function as the device's target
 * state (`GET /device/{uuid}/effective-variables`).
 */
export function EffectiveVariablesPanel({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const effective = useEffectiveVariables(uuid);
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2 }}>
      <Typography id={headingId} variant="h6" component="h2">
        {t('variablesEffective.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('variablesEffective.intro')}
      </Typography>
      {effective.isError ? (
        <Typography color="error">{t('variablesEffective.load_failed')}</Typography>
      ) : effective.isPending ? (
        <Typography color="text.secondary">{t('variablesEffective.loading')}</Typography>
      ) : (
        <Stack spacing={3}>
          <section aria-label={t('variablesEffective.configuration')}>
            <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
              {t('variablesEffective.configuration')}
            </Typography>
            <VariablesTable label={t('variablesEffective.config_table')} rows={effective.data.config} />
          </section>
          {effective.data.services.length === 0 ? (
            <Typography color="text.secondary">{t('variablesEffective.no_release')}</Typography>
          ) : (
            effective.data.services.map((service) => (
              <section key={service.id} aria-label={t('variablesEffective.service', { name: service.service_name })}>
                <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
                  {t('variablesEffective.service', { name: service.service_name })}
                </Typography>
                <VariablesTable label={t('variablesEffective.service_table', { name: service.service_name })} rows={service.environment} />
              </section>
            ))
          )}
        </Stack>
      )}
    </Paper>
  );
}
