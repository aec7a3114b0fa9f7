import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import '../i18n';
import ChangelogMarkdown from './changelog-markdown';

/** The bundled CHANGELOG.md in a dialog (spec 3 §2 header); closing it records the version seen. */
export default function ChangelogDialog({ markdown, failed, onClose }: { markdown: string | undefined; failed: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="md" fullWidth scroll="paper">
      <DialogTitle id={titleId}>{t('platform_news.changelog_title')}</DialogTitle>
      <DialogContent dividers>
        {markdown !== undefined ? (
          <Box sx={{ typography: 'body2', '& h3': { typography: 'h6', mt: 2, mb: 1 }, '& h4': { typography: 'subtitle1', fontWeight: 600, mt: 1.5, mb: 0.5 } }}>
            <ChangelogMarkdown source={markdown} />
          </Box>
        ) : (
          <Typography variant="body2">{failed ? t('platform_news.changelog_failed') : t('platform_news.changelog_loading')}</Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained">
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
