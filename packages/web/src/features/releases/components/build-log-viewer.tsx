import { Box, Typography } from '@mui/material';
import { useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { buildLogBuffer } from '../build-log-buffer';

/**
 * A build log (spec 2 §2): at most 3000 lines in a height-capped <pre> that follows the end
 * of the log while the reader is at the bottom (the log grows while a release builds).
 */
export function BuildLogViewer({ label, text }: { label: string; text: string | null }) {
  const { t } = useTranslation();
  const buffer = useMemo(() => buildLogBuffer(text), [text]);
  const ref = useRef<HTMLPreElement>(null);
  const atBottom = useRef(true);

  useLayoutEffect(() => {
    const el = ref.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [buffer]);

  if (buffer.lines.length === 0) return <Typography color="text.secondary">{t('releases.build_log_empty')}</Typography>;
  return (
    <Box
      component="pre"
      ref={ref}
      role="log"
      aria-label={label}
      tabIndex={0}
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
      }}
      sx={{
        m: 0,
        p: 1.5,
        maxHeight: 400,
        overflow: 'auto',
        bgcolor: 'grey.900',
        color: 'grey.100',
        borderRadius: 1,
        fontSize: 12,
        lineHeight: 1.5,
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-all',
      }}
    >
      {buffer.dropped > 0 && `${t('releases.build_log_truncated', { count: buffer.dropped })}\n`}
      {buffer.lines.join('\n')}
    </Box>
  );
}
