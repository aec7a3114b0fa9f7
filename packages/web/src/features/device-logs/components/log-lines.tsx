import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LogEntry } from '../log-buffer';
import { formatLogTimestamp, lineSource, stripAnsi } from '../log-format';

/** Within this many pixels of the end the list counts as at the end (and follows new lines). */
const AT_END_PX = 24;
const ESTIMATED_LINE_PX = 18;

export interface LogLinesProps {
  lines: readonly LogEntry[];
  serviceNames: ReadonlyMap<number, string>;
  utc: boolean;
  hideTimestamps: boolean;
  /** The scroll box's height (spec 2 §9: at most 900 px). */
  height: number;
  label: string;
}

/**
 * The lines, virtualised (@tanstack/react-virtual: only the lines in view plus an overscan are
 * in the DOM, each measured as it renders, so 5000 wrapped lines scroll smoothly). The list
 * follows the newest line while the reader is at its end; scrolling up stops that and offers
 * 'Jump to latest'. The box is focusable, so arrows, Page Up/Down, Home and End scroll it.
 */
export function LogLines({ lines, serviceNames, utc, hideTimestamps, height, label }: LogLinesProps) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [following, setFollowing] = useState(true);
  const lastTop = useRef(0);
  const systemLabel = t('deviceLogs.system');

  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_LINE_PX,
    getItemKey: (index) => lines[index]!.seq,
    overscan: 20,
    initialRect: { width: 0, height },
    useFlushSync: false,
  });

  const toEnd = useCallback(() => {
    if (lines.length > 0) virtualizer.scrollToIndex(lines.length - 1, { align: 'end' });
  }, [lines.length, virtualizer]);

  // New lines (or a new filter) while following: stay at the end.
  useLayoutEffect(() => {
    if (following) toEnd();
  }, [lines, following, toEnd]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight <= AT_END_PX;
    // Scrolling up leaves the end; reaching the end again (or jumping) follows again.
    if (atEnd) setFollowing(true);
    else if (el.scrollTop < lastTop.current) setFollowing(false);
    lastTop.current = el.scrollTop;
  };

  const items = virtualizer.getVirtualItems();
  return (
    <Box sx={{ position: 'relative' }}>
      <Box
        ref={scrollRef}
        role="log"
        aria-label={label}
        tabIndex={0}
        onScroll={onScroll}
        data-testid="device-log-lines"
        sx={{
          height,
          maxHeight: height,
          overflow: 'auto',
          bgcolor: 'grey.900',
          color: 'grey.100',
          borderRadius: 1,
          fontFamily: 'monospace',
          fontSize: 12,
          lineHeight: 1.5,
          '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.light', outlineOffset: 2 },
        }}
      >
        <Box sx={{ height: virtualizer.getTotalSize(), width: '100%', position: 'relative' }}>
          {items.map((item) => {
            const line = lines[item.index]!;
            return (
              <Box
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                data-testid="device-log-line"
                data-system={line.isSystem ? 'true' : undefined}
                data-stderr={line.isStdErr ? 'true' : undefined}
                sx={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  width: '100%',
                  transform: `translateY(${item.start}px)`,
                  px: 1.5,
                  whiteSpace: 'pre-wrap',
                  overflowWrap: 'anywhere',
                  ...(line.isSystem ? { color: 'info.light', fontStyle: 'italic' } : {}),
                  ...(line.isStdErr ? { color: 'error.light', borderLeft: '3px solid', borderColor: 'error.main', pl: 1.125 } : {}),
                }}
              >
                {hideTimestamps ? null : (
                  <Box component="span" data-testid="device-log-timestamp" sx={{ color: 'grey.500', mr: 1 }}>
                    {formatLogTimestamp(line.timestamp, utc)}
                  </Box>
                )}
                <Box component="span" data-testid="device-log-source" sx={{ color: line.isSystem ? 'info.light' : 'success.light', mr: 1 }}>
                  {lineSource(line, serviceNames, systemLabel)}
                </Box>
                {line.isStdErr ? (
                  <Box component="span" sx={{ color: 'error.light', mr: 1 }}>
                    {`[${t('deviceLogs.stderr')}]`}
                  </Box>
                ) : null}
                <span data-testid="device-log-message">{stripAnsi(line.message).replace(/\r?\n$/, '')}</span>
              </Box>
            );
          })}
        </Box>
      </Box>
      {following || lines.length === 0 ? null : (
        <Button
          size="small"
          variant="contained"
          onClick={() => {
            setFollowing(true);
            toEnd();
          }}
          sx={{ position: 'absolute', right: 16, bottom: 12 }}
        >
          {t('deviceLogs.jump_to_latest')}
        </Button>
      )}
    </Box>
  );
}
