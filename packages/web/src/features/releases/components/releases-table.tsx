import { Box, Chip, Link, Stack, Tooltip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { DataTable, type Column } from '../../../components/data-table';
import type { ReleaseRow } from '../api/get-releases';
import { shortCommit, shownStatus } from '../release-view';
import { formatTimestamp } from './format';
import { ReleaseStatusChip } from './release-status-chip';

interface Props {
  rows: ReleaseRow[] | undefined;
  loading: boolean;
  /** /{class}s/{id}/releases */
  listPath: string;
  now: number;
}

/** The release list (spec 2 §2): the commit opens the release. */
export function ReleasesTable({ rows, loading, listPath, now }: Props) {
  const { t, i18n } = useTranslation();
  const yesNo = (v: boolean) => (v ? t('releases.yes') : t('releases.no'));
  const columns: Column<ReleaseRow>[] = [
    {
      key: 'commit',
      header: t('releases.col_commit'),
      render: (r) => (
        <Link component={RouterLink} to={`${listPath}/${r.id}`} aria-label={t('releases.open_release', { commit: shortCommit(r.commit) })} sx={{ fontFamily: 'monospace' }}>
          {shortCommit(r.commit)}
        </Link>
      ),
    },
    { key: 'version', header: t('releases.col_version'), render: (r) => r.raw_version },
    { key: 'status', header: t('releases.col_status'), render: (r) => <ReleaseStatusChip status={shownStatus(r, now)} /> },
    { key: 'created', header: t('releases.col_created'), render: (r) => formatTimestamp(r.created_at, i18n.language) },
    { key: 'creator', header: t('releases.col_creator'), render: (r) => r.creator ?? t('releases.none') },
    { key: 'source', header: t('releases.col_source'), render: (r) => r.source },
    { key: 'valid', header: t('releases.col_valid'), render: (r) => yesNo(!r.is_invalidated) },
    { key: 'final', header: t('releases.col_final'), render: (r) => yesNo(r.is_final) },
    {
      key: 'tags',
      header: t('releases.col_tags'),
      render: (r) =>
        r.tags.length === 0 ? (
          t('releases.none')
        ) : (
          <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {r.tags.map((tag) => (
              <Tooltip key={tag.tag_key} title={`${tag.tag_key}: ${tag.value}`}>
                {/* Spec 2 §9: tag chips are at most 100 px wide. */}
                <Chip size="small" variant="outlined" label={<Box component="span">{`${tag.tag_key}: ${tag.value}`}</Box>} sx={{ maxWidth: 100 }} />
              </Tooltip>
            ))}
          </Stack>
        ),
    },
  ];
  return <DataTable label={t('releases.table')} columns={columns} rows={rows} getRowKey={(r) => r.id} loading={loading} />;
}
