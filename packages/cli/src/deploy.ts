import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type Docker from 'dockerode';
import type { CliOutput } from './output.js';
import { packContext } from './context.js';
import { contextDir, type LoadedProject } from './project.js';
import { PushProgress, eventError, pushedDigest, readEvents } from './engine.js';
import type { ServiceSpec } from './compose.js';
import type { Api } from './api.js';

/** Largest build log kept on an image (the tail is kept; 1 MiB). */
export const MAX_BUILD_LOG_CHARS = 1024 * 1024;

export interface DeployOptions {
  note?: string;
  semver?: string;
  /** A draft release (is_final false), as `balena deploy --draft`. */
  draft?: boolean;
}

export interface DeployResult {
  releaseId: number;
  commit: string;
}

/** A failure of one service's build or push; its log goes to the image's build_log. */
class ServiceFailure extends Error {
  constructor(
    readonly service: string,
    message: string,
  ) {
    super(message);
  }
}

/** Keeps the last MAX_BUILD_LOG_CHARS characters of a log. */
function tail(log: string): string {
  return log.length > MAX_BUILD_LOG_CHARS ? log.slice(log.length - MAX_BUILD_LOG_CHARS) : log;
}

interface Step {
  service: ServiceSpec;
  imageId: number;
  location: string;
  log: string;
  /** The Dockerfile's text, saved on the image as balena-cli does. */
  dockerfile?: string;
  done: boolean;
}

/**
 * `flotilla deploy`, the way `balena deploy` does it through /v7: create the release
 * (running) → service (get or create) → image (running) → image__is_part_of__release; then per
 * service build (or take the named image), tag as the image's location and push it through
 * the engine, and mark the image success with its digest, size and build log; finally the
 * release success. Any failure marks the failing image and the release `failed` (the others
 * `cancelled`) and is rethrown.
 */
export async function deploy(api: Api, docker: Docker, fleet: { id: number; slug: string }, project: LoadedProject, options: DeployOptions, out: CliOutput): Promise<DeployResult> {
  const commit = randomBytes(16).toString('hex');
  const auth = await api.registryAuth();
  const release = await api.createRelease({
    belongs_to__application: fleet.id,
    commit,
    status: 'running',
    source: 'cloud',
    composition: project.composition,
    is_final: !options.draft,
    start_timestamp: new Date().toISOString(),
    ...(options.semver !== undefined ? { semver: options.semver } : {}),
    ...(options.note !== undefined ? { note: options.note } : {}),
  });
  out.stdout(`Created release ${release.id} (commit ${commit}) for ${fleet.slug}\n`);

  const steps: Step[] = [];
  const finish = async (status: 'failed' | 'interrupted', error: Error) => {
    const failed = error instanceof ServiceFailure ? error.service : undefined;
    for (const step of steps) {
      if (step.done) continue;
      // Interrupted: every unfinished image is. Failed: the failing image is, the rest were cancelled.
      const imageStatus = status === 'interrupted' ? 'interrupted' : step.service.name === failed ? 'failed' : 'cancelled';
      await api
        .patchImage(step.imageId, {
          status: imageStatus,
          end_timestamp: new Date().toISOString(),
          ...(step.log ? { build_log: tail(step.log) } : {}),
          ...(imageStatus === 'failed' ? { error_message: error.message.slice(0, 100_000) } : {}),
        })
        .catch(() => undefined);
    }
    await api.patchRelease(release.id, { status, end_timestamp: new Date().toISOString(), build_log: error.message.slice(0, 100_000) }).catch(() => undefined);
  };

  // Ctrl-C (or SIGTERM) stops the build or push under way and leaves the release interrupted;
  // a second signal kills the process as usual.
  let interrupted = false;
  const abort = new AbortController();
  const onSignal = () => {
    interrupted = true;
    out.stderr('Interrupted: stopping and marking the release interrupted…\n');
    abort.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    for (const service of project.services) {
      const serviceId = await api.getOrCreateService(fleet.id, service.name);
      const image = await api.createImage({
        is_a_build_of__service: serviceId,
        status: 'running',
        start_timestamp: new Date().toISOString(),
        project_type: service.build ? 'Dockerfile' : 'Standard Dockerfile',
      });
      await api.linkImage(image.id, release.id);
      steps.push({ service, imageId: image.id, location: image.is_stored_at__image_location, log: '', done: false });
    }
    for (const step of steps) {
      if (interrupted) throw new Error('interrupted');
      const local = await buildOrTake(docker, project, step, out, abort.signal);
      if (interrupted) throw new Error('interrupted');
      const pushed = await push(docker, local, step, auth, out, abort.signal);
      await api.patchImage(step.imageId, {
        status: 'success',
        content_hash: pushed.digest,
        image_size: pushed.size,
        build_log: tail(step.log),
        ...(step.dockerfile !== undefined ? { dockerfile: step.dockerfile } : {}),
        push_timestamp: new Date().toISOString(),
        end_timestamp: new Date().toISOString(),
      });
      step.done = true;
      out.stdout(`[${step.service.name}] Pushed ${step.location}@${pushed.digest}\n`);
    }
    await api.patchRelease(release.id, { status: 'success', end_timestamp: new Date().toISOString() });
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    await finish(interrupted ? 'interrupted' : 'failed', error);
    throw error;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
  out.stdout(`Release ${release.id} (commit ${commit}) deployed to ${fleet.slug}\n`);
  return { releaseId: release.id, commit };
}

/** Builds the service from its context (or finds / pulls its image); returns the local image reference. */
async function buildOrTake(docker: Docker, project: LoadedProject, step: Step, out: CliOutput, abortSignal: AbortSignal): Promise<string> {
  const { service } = step;
  const say = (line: string) => {
    step.log += `${line}\n`;
    out.stdout(`[${service.name}] ${line}\n`);
  };
  if (!service.build) {
    const ref = service.image!;
    const present = await docker
      .getImage(ref)
      .inspect()
      .then(() => true, () => false);
    if (!present) {
      say(`Pulling ${ref}`);
      const stream = (await docker.pull(ref, { abortSignal })) as NodeJS.ReadableStream;
      let failure: string | undefined;
      await readEvents(stream, (e) => {
        failure ??= eventError(e);
      });
      if (failure) throw new ServiceFailure(service.name, `pulling ${ref} failed: ${failure}`);
    } else {
      say(`Using ${ref}`);
    }
    return ref;
  }
  const build = service.build;
  // Built straight under the release image's location, which is what gets pushed.
  const tag = `${step.location}:latest`;
  say(`Building ${build.context} (${build.dockerfile})`);
  const context = contextDir(project, build.context);
  step.dockerfile = tail(await readFile(join(context, build.dockerfile), 'utf8'));
  let failure: string | undefined;
  try {
    const stream = await docker.buildImage(await packContext(context, build.dockerfile), {
      t: tag,
      dockerfile: build.dockerfile,
      rm: true,
      abortSignal,
      forcerm: true,
      ...(Object.keys(build.args).length ? { buildargs: build.args } : {}),
      ...(Object.keys(build.labels).length ? { labels: build.labels } : {}),
      ...(build.target ? { target: build.target } : {}),
    });
    let partial = '';
    await readEvents(stream, (e) => {
      const error = eventError(e);
      if (error) {
        failure ??= error;
        say(`Error: ${error.trim()}`);
        return;
      }
      if (e.stream !== undefined) {
        partial += e.stream;
        const lines = partial.split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) if (line.trim()) say(line.replace(/\s+$/, ''));
      }
    });
    if (partial.trim()) say(partial.trim());
  } catch (err) {
    failure ??= (err as Error).message;
    say(`Error: ${failure}`);
  }
  if (!failure) {
    const built = await docker
      .getImage(tag)
      .inspect()
      .then(() => true, () => false);
    if (!built) failure = 'the engine reported no error but no image was built';
  }
  if (failure) throw new ServiceFailure(service.name, `building service "${service.name}" failed: ${failure.trim()}`);
  return tag;
}

/** Tags the local image as the release image's location and pushes it; returns the manifest digest and image size. */
async function push(
  docker: Docker,
  local: string,
  step: Step,
  auth: { username: string; password: string },
  out: CliOutput,
  abortSignal: AbortSignal,
): Promise<{ digest: string; size: number }> {
  const { service } = step;
  const say = (line: string) => {
    step.log += `${line}\n`;
    out.stdout(`[${service.name}] ${line}\n`);
  };
  if (local !== `${step.location}:latest`) await docker.getImage(local).tag({ repo: step.location, tag: 'latest' });
  const size = Number((await docker.getImage(`${step.location}:latest`).inspect()).Size ?? 0);
  say(`Pushing ${step.location}:latest`);
  const serveraddress = step.location.split('/')[0]!;
  let digest: string | undefined;
  let failure: string | undefined;
  try {
    const stream = (await docker.getImage(step.location).push({
      tag: 'latest',
      abortSignal,
      authconfig: { username: auth.username, password: auth.password, serveraddress },
    })) as NodeJS.ReadableStream;
    const progress = new PushProgress();
    let shown = -1;
    await readEvents(stream, (e) => {
      const error = eventError(e);
      if (error) failure ??= error;
      digest ??= pushedDigest(e);
      const percent = progress.update(e);
      // One line per 10 % so logs stay short.
      if (percent !== undefined && Math.floor(percent / 10) > Math.floor(shown / 10)) {
        shown = percent;
        out.stdout(`[${service.name}] Pushing ${percent}%\n`);
      }
    });
  } catch (err) {
    failure ??= (err as Error).message;
  }
  if (!failure && !digest) failure = 'the engine did not report the pushed digest';
  if (failure) {
    say(`Error: ${failure.trim()}`);
    throw new ServiceFailure(service.name, `pushing service "${service.name}" failed: ${failure.trim()}`);
  }
  say(`Pushing 100%`);
  return { digest: digest!, size };
}
