import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import { LABEL as CONTAINER_LABELS } from '../core/containers.js';
import { TerminalRefused, type Tty, type TtyEvents, type TtySize } from '../core/terminal.js';

/** Shells tried in this order; busybox images have only /bin/busybox. */
const SHELLS: { path: string; cmd: string[] }[] = [
  { path: '/bin/bash', cmd: ['/bin/bash'] },
  { path: '/bin/sh', cmd: ['/bin/sh'] },
  { path: '/bin/busybox', cmd: ['/bin/busybox', 'sh'] },
];

/** How long a closed exec's shell gets to end after its hang-up before it is killed. */
const KILL_AFTER_MS = 2_000;

async function exists(container: Docker.Container, path: string): Promise<boolean> {
  try {
    await container.infoArchive({ path });
    return true;
  } catch {
    return false;
  }
}

/** The running container of `service` on this device (the current release's; an old one is stopped). */
async function serviceContainer(docker: Docker, uuid: string, service: string): Promise<Docker.ContainerInfo> {
  const list = await docker.listContainers({
    all: true,
    filters: { label: [`${CONTAINER_LABELS.deviceUuid}=${uuid}`, `${CONTAINER_LABELS.serviceName}=${service}`] },
  });
  if (list.length === 0) throw new TerminalRefused(`this device runs no service named ${service}`);
  const running = list.find((c) => c.State === 'running');
  if (!running) throw new TerminalRefused(`service ${service} is not running`);
  return running;
}

/**
 * A shell in a service's container: `docker exec` with a TTY (bash, else sh, else busybox sh),
 * the hijacked stream both ways, resize through the exec. Closing hangs up the stream and
 * then ends the exec's process (engines keep an exec running when its client leaves), so no
 * session leaves a shell behind.
 */
export async function openContainerTty(docker: Docker, uuid: string, service: string, size: TtySize, events: TtyEvents): Promise<Tty> {
  const info = await serviceContainer(docker, uuid, service);
  const container = docker.getContainer(info.Id);
  let shell: string[] | undefined;
  for (const s of SHELLS) {
    if (await exists(container, s.path)) {
      shell = s.cmd;
      break;
    }
  }
  if (!shell) throw new TerminalRefused(`service ${service} has no shell (/bin/bash, /bin/sh or /bin/busybox)`);
  const exec = await container.exec({
    Cmd: shell,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: true,
    Env: ['TERM=xterm-256color'],
  });
  const stream = (await exec.start({ hijack: true, stdin: true, Tty: true })) as Duplex;
  let ended = false;
  const finish = (reason: string) => {
    if (ended) return;
    ended = true;
    events.onExit(reason);
  };
  stream.on('data', (chunk: Buffer) => events.onData(chunk));
  const exited = () => {
    if (ended) return;
    void container
      .inspect()
      .then((c) => (c.State.Running ? 'the shell exited' : 'the container stopped'))
      .catch(() => 'the container is gone')
      .then(finish);
  };
  stream.on('end', exited);
  stream.on('close', exited);
  stream.on('error', (err) => finish(`the terminal failed: ${err.message}`));
  // A resize is an HTTP call to the engine, input goes down the stream: input typed after a
  // resize waits for it, so `stty size` typed after a resize reads the new size. (Podman
  // answers a resize 201, which dockerode reports as an error: the outcome is not needed.)
  // An exec's TTY can be resized once its process runs: the first resize waits for that (and a
  // resize the engine refuses is tried again, a few times).
  const resizeOnce = async (s: TtySize) => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const ok = await exec.resize({ h: s.rows, w: s.cols }).then(
        () => true,
        (err: { statusCode?: number }) => err.statusCode === 200 || err.statusCode === 201,
      );
      if (ok || ended) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  // The TTY takes a size once the shell is up (Podman drops a resize sent before): the first
  // resize waits for the shell's first output (its prompt), at most 2 s.
  const running = new Promise<void>((resolve) => {
    stream.once('data', () => resolve());
    setTimeout(resolve, 2_000).unref();
  });
  let resizing: Promise<unknown> | null = running;
  let latest = size;
  const resize = (s: TtySize) => {
    latest = s;
    const done = (resizing ?? Promise.resolve()).then(() => resizeOnce(s));
    resizing = done;
    void done.then(() => {
      if (resizing === done) resizing = null;
    });
    // Podman sometimes loses a resize around the start of an exec (its attach sets the
    // default size afterwards): the latest size is applied again a little later.
    for (const ms of [300, 1_500]) {
      setTimeout(() => {
        if (!ended && latest === s && resizing === null) void resizeOnce(s);
      }, ms).unref();
    }
  };
  resize(size);

  const kill = async () => {
    // The exec's process, if it outlived its stream: hang it up, then kill it.
    const pid = await exec
      .inspect()
      .then((i) => (i.Running ? i.Pid : 0))
      .catch(() => 0);
    if (!pid) return;
    for (const signal of ['SIGHUP', 'SIGKILL'] as const) {
      try {
        process.kill(pid, signal);
      } catch {
        return; // gone (or not ours to signal: another PID namespace)
      }
      await new Promise((r) => setTimeout(r, signal === 'SIGHUP' ? KILL_AFTER_MS : 0));
      const still = await exec
        .inspect()
        .then((i) => i.Running)
        .catch(() => false);
      if (!still) return;
    }
  };

  return {
    write: (data) => {
      if (ended) return;
      if (resizing) void resizing.then(() => !ended && stream.write(data));
      else stream.write(data);
    },
    resize,
    pause: () => stream.pause(),
    resume: () => stream.resume(),
    close: () => {
      ended = true;
      // Ctrl-D on an empty line would only end an idle shell; the hang-up ends any of them.
      stream.end();
      stream.destroy();
      void kill();
    },
  };
}
