import { describe, expect, it } from 'vitest';
import { TerminalRefused, type TtyEvents } from '../core/terminal.js';
import { HOST_SHELL_DISABLED, hostTerminals } from './tty.js';
import { hostShell, nodePtyFrom, openHostTty } from './tty-pty.js';

const events: TtyEvents = { onData: () => undefined, onExit: () => undefined };

describe('host terminal', () => {
  it('is refused unless the agent was started with --allow-host-shell', async () => {
    await expect(hostTerminals({ uuid: 'u', allowHostShell: false }).open(null, { cols: 80, rows: 24 }, events)).rejects.toEqual(new TerminalRefused(HOST_SHELL_DISABLED));
  });

  it('without node-pty installed the host shell is refused with the reason, nothing else breaks', async () => {
    const missing = () => nodePtyFrom(() => Promise.reject(new Error("Cannot find package '@lydell/node-pty'\nRequire stack: …")));
    await expect(openHostTty({ cols: 80, rows: 24 }, events, {}, missing)).rejects.toEqual(
      new TerminalRefused("the host shell is unavailable: node-pty could not be loaded (Cannot find package '@lydell/node-pty')"),
    );
  });

  it('service terminals need an engine', async () => {
    await expect(hostTerminals({ uuid: 'u', allowHostShell: true }).open('main', { cols: 80, rows: 24 }, events)).rejects.toEqual(
      new TerminalRefused('this agent runs no containers (--engine none)'),
    );
  });

  it('runs $SHELL when it exists, else bash, else sh', () => {
    expect(hostShell({ SHELL: '/nonexistent/zsh' })).toMatch(/^\/bin\/(bash|sh)$/);
    expect(hostShell({ SHELL: '/bin/sh' })).toBe('/bin/sh');
  });
});
