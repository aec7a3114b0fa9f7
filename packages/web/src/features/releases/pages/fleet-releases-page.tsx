import { Stack, TablePagination, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { FullPageError } from '../../../components/full-page-status';
import { TextInput } from '../../../components/form-fields';
import { errorStatus } from '../../../lib/errors';
import { RELEASE_PAGE_SIZE } from '../api/keys';
import { useReleases } from '../api/get-releases';
import { ReleasesTable } from '../components/releases-table';
import '../i18n';

/** Typing pauses this long before the search is sent. */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * /{class}s/{id}/releases (spec 2 §2, §5, §7): the fleet's releases, newest first, 50 a page,
 * searched by version or tag, refetched every 6 s; each row opens the release.
 */
export function FleetReleasesPage({ fleetId, canRead }: { fleetId: number; canRead: boolean }) {
  const { t } = useTranslation();
  const listPath = useLocation().pathname.replace(/\/+$/, '');
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);

  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(input.trim());
      setPage(0);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [input]);

  const releases = useReleases(fleetId, page, search);
  if (!canRead) return <Typography>{t('fleet.unauthorized')}</Typography>;

  const data = releases.data;
  return (
    <Stack component="section" aria-label={t('releases.title')} spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
        <Typography variant="h6" component="h2">
          {t('releases.title')}
        </Typography>
        <FormSearch value={input} onChange={setInput} />
      </Stack>
      {releases.isError ? (
        // Spec 2 §8: a search the server cannot turn into a filter (400) is 'Release panel create filter'.
        <FullPageError
          message={search && errorStatus(releases.error) === 400 ? t('releases.create_filter_failed') : t('releases.load_failed')}
          onRetry={() => void releases.refetch()}
        />
      ) : data && data.total === 0 ? (
        <Typography color="text.secondary">{search ? t('releases.no_match', { search }) : t('releases.empty')}</Typography>
      ) : (
        <>
          <ReleasesTable rows={data?.rows} loading={releases.isPending || releases.isPlaceholderData} listPath={listPath} now={releases.dataUpdatedAt} />
          {data && data.total > RELEASE_PAGE_SIZE && (
            <TablePagination
              component="div"
              count={data.total}
              page={page}
              rowsPerPage={RELEASE_PAGE_SIZE}
              rowsPerPageOptions={[RELEASE_PAGE_SIZE]}
              onPageChange={(_, next) => setPage(next)}
            />
          )}
        </>
      )}
    </Stack>
  );
}

function FormSearch({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation();
  return (
    <div style={{ minWidth: 280 }}>
      <TextInput
        id="release-search"
        type="search"
        size="small"
        label={t('releases.search_label')}
        placeholder={t('releases.search_hint')}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
