import '@xterm/xterm/css/xterm.css';
import Box from '@mui/material/Box';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import { useEffect, useRef } from 'react';
import type { TerminalConnection } from './terminal-connection';

export interface XtermViewProps {
  connection: TerminalConnection;
  /** The tab is shown: fit to the panel and take the keyboard. */
  active: boolean;
  label: string;
  height: number | string;
}

/**
 * One session's xterm.js (its own lazy chunk with its CSS: xterm is not on any first page).
 * Output from the connection is written into it; keystrokes go to the connection; its size
 * follows the panel (addon-fit on every resize of the box) and each new size is sent as a
 * `resize` frame. xterm owns the keys once focused (no Escape trap: Tab and Escape reach the
 * shell); the tab controls above it stay reachable with Shift+Tab from the page.
 */
export function XtermView({ connection, active, label, height }: XtermViewProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const termRef = useRef<{ term: Terminal; fit: FitAddon } | null>(null);

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return undefined;
    const term = new Terminal({
      cursorBlink: true,
      fontSize: 13,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
      scrollback: 5000,
      cols: connection.size.cols,
      rows: connection.size.rows,
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(box);
    termRef.current = { term, fit };
    const detach = connection.attach((text) => term.write(text));
    const input = term.onData((data) => connection.send(data));
    // The size the TTY is asked for, on the box for tests and tools (no re-render).
    const showSize = (cols: number, rows: number) => {
      box.dataset.cols = String(cols);
      box.dataset.rows = String(rows);
    };
    showSize(term.cols, term.rows);
    const resized = term.onResize(({ cols, rows }) => {
      showSize(cols, rows);
      connection.resize(cols, rows);
    });
    const refit = () => {
      // A hidden tab has no size: fitting it would shrink the TTY to nothing.
      if (box.offsetWidth > 0 && box.offsetHeight > 0) fit.fit();
    };
    const observer = new ResizeObserver(refit);
    observer.observe(box);
    refit();
    return () => {
      observer.disconnect();
      input.dispose();
      resized.dispose();
      detach();
      termRef.current = null;
      term.dispose();
    };
  }, [connection]);

  useEffect(() => {
    const current = termRef.current;
    if (!active || !current) return;
    if (boxRef.current && boxRef.current.offsetWidth > 0) current.fit.fit();
    current.term.focus();
  }, [active]);

  return (
    <Box
      ref={boxRef}
      role="group"
      aria-label={label}
      data-terminal-target={connection.target}
      sx={{ height, width: '100%', bgcolor: '#000', p: 0.5, boxSizing: 'border-box', display: active ? 'block' : 'none' }}
    />
  );
}

export default XtermView;
