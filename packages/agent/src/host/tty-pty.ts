import { existsSync } from 'node:fs';
import { TerminalRefused, type Tty, type TtyEvents, type TtySize } from '../core/terminal.js';

type NodePty = typeof import('@lydell/node-pty');

let loaded: Promise<NodePty | string> | undefined;

/**
 * node-pty (prebuilt binaries as optional platform packages), loaded on first use: an agent
 * installed without it (an unsupported platform, a bundle without its native part) still
 * runs, and a host terminal is refused with the reason.
 */
export function loadNodePty(): Promise<NodePty | string> {
  loaded ??= nodePtyFrom(() => import('@lydell/node-pty'));
  return loaded;
}

/** The module, or why the host shell is unavailable. */
export function nodePtyFrom(load: () => Promise<unknown>): Promise<NodePty | string> {
  return load().then(
    (m) => ((m as { default?: NodePty }).default ?? m) as NodePty,
    (err: unknown) => `the host shell is unavailable: node-pty could not be loaded (${String((err as Error)?.message ?? err).split('\n')[0]})`,
  );
}

/** The user's shell, else bash, else sh. */
export function hostShell(env: NodeJS.ProcessEnv = process.env): string {
  for (const candidate of [env.SHELL, '/bin/bash', '/bin/sh']) if (candidate && existsSync(candidate)) return candidate;
  return '/bin/sh';
}

/** A shell on the host in a real pseudo-terminal (`--allow-host-shell`). */
export async function openHostTty(size: TtySize, events: TtyEvents, env: NodeJS.ProcessEnv = process.env, load = loadNodePty): Promise<Tty> {
  const pty = await load();
  if (typeof pty === 'string') throw new TerminalRefused(pty);
  const proc = pty.spawn(hostShell(env), [], {
    name: 'xterm-256color',
    cols: size.cols,
    rows: size.rows,
    cwd: env.HOME && existsSync(env.HOME) ? env.HOME : '/',
    env: { ...env, TERM: 'xterm-256color' } as Record<string, string>,
    encoding: null,
  });
  let ended = false;
  proc.onData((chunk: string | Buffer) => events.onData(chunk));
  proc.onExit(({ exitCode, signal }) => {
    if (ended) return;
    ended = true;
    events.onExit(signal ? `the shell ended (signal ${signal})` : `the shell exited (${exitCode})`);
  });
  return {
    write: (data) => {
      if (!ended) proc.write(data);
    },
    resize: (s) => {
      if (!ended) proc.resize(s.cols, s.rows);
    },
    pause: () => proc.pause(),
    resume: () => proc.resume(),
    close: () => {
      if (ended) return;
      ended = true;
      try {
        proc.kill('SIGHUP');
      } catch {
        // already gone
      }
    },
  };
}
