import type Docker from 'dockerode';
import { TerminalRefused, type TerminalHost } from '../core/terminal.js';
import { openContainerTty } from './tty-exec.js';
import { openHostTty } from './tty-pty.js';

export interface HostTerminalOptions {
  /** The engine running the release's containers; none with `--engine none`. */
  docker?: Docker;
  uuid: string;
  /** `--allow-host-shell`: a shell on the host itself (off by default). */
  allowHostShell: boolean;
}

/** The reason a host terminal is refused on an agent started without the flag. */
export const HOST_SHELL_DISABLED = 'the host shell is disabled on this device (start flotilla-agent with --allow-host-shell)';

/** `flotilla-agent run`'s terminals: a service's container through the engine, the host through a PTY. */
export function hostTerminals(o: HostTerminalOptions): TerminalHost {
  return {
    open(service, size, events) {
      if (service === null) {
        if (!o.allowHostShell) return Promise.reject(new TerminalRefused(HOST_SHELL_DISABLED));
        return openHostTty(size, events);
      }
      if (!o.docker) return Promise.reject(new TerminalRefused('this agent runs no containers (--engine none)'));
      return openContainerTty(o.docker, o.uuid, service, size, events);
    },
  };
}
