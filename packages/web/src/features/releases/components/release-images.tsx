import { Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReleaseImage } from '../api/get-release';
import { formatBytes } from '../release-view';
import { BuildLogViewer } from './build-log-viewer';
import { DefinitionList } from './definition-list';
import { formatTimestamp } from './format';

const codeBlock = {
  m: 0,
  p: 1.5,
  maxHeight: 300,
  overflow: 'auto',
  bgcolor: 'action.hover',
  borderRadius: 1,
  fontSize: 12,
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-all',
} as const;

/**
 * The release's images (spec 2 §2): per image the service name, location, size, start, end
 * and push timestamps, error message, Dockerfile and build log. Spec 2 §4: running,
 * cancelled and local releases show no image success or error mark.
 */
export function ReleaseImages({ images, showStatusMarks }: { images: ReleaseImage[]; showStatusMarks: boolean }) {
  const { t, i18n } = useTranslation();
  const none = t('releases.none');
  const time = (v: string | null) => formatTimestamp(v, i18n.language) ?? none;
  return (
    <Stack component="section" aria-label={t('releases.images')} spacing={2}>
      <Typography variant="h6" component="h2">
        {t('releases.images')}
      </Typography>
      {images.length === 0 && <Typography color="text.secondary">{t('releases.no_images')}</Typography>}
      {images.map((image) => {
        const mark = !showStatusMarks ? null : image.status === 'success' ? '✓' : image.status === 'failed' || image.status === 'error' ? '✕' : null;
        const rows: [string, ReactNode][] = [
          [t('releases.image_status'), image.status],
          [t('releases.image_location'), <code key="loc">{image.location}</code>],
          [t('releases.image_size'), formatBytes(image.image_size) ?? none],
          [t('releases.image_started'), time(image.start_timestamp)],
          [t('releases.image_ended'), time(image.end_timestamp)],
          [t('releases.image_pushed'), time(image.push_timestamp)],
        ];
        if (image.error_message) rows.push([t('releases.image_error'), image.error_message]);
        return (
          <Paper key={image.id} variant="outlined" component="section" aria-label={image.service_name} sx={{ p: 2 }}>
            <Stack spacing={1.5}>
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                {mark && (
                  <Typography
                    component="span"
                    role="img"
                    aria-label={mark === '✓' ? t('releases.image_ok') : t('releases.image_failed')}
                    color={mark === '✓' ? 'success.main' : 'error.main'}
                    sx={{ mr: 1 }}
                  >
                    {mark}
                  </Typography>
                )}
                {image.service_name}
              </Typography>
              <DefinitionList rows={rows} />
              <Typography variant="subtitle2" component="h4">
                {t('releases.image_dockerfile')}
              </Typography>
              {image.dockerfile ? (
                <Typography component="pre" aria-label={t('releases.image_dockerfile')} sx={codeBlock}>
                  {image.dockerfile}
                </Typography>
              ) : (
                <Typography color="text.secondary">{t('releases.no_dockerfile')}</Typography>
              )}
              <Typography variant="subtitle2" component="h4">
                {t('releases.build_log')}
              </Typography>
              <BuildLogViewer label={`${image.service_name} ${t('releases.build_log')}`} text={image.build_log} />
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}
