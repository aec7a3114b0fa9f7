import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { ComposeError, MAX_COMPOSE_BYTES, parseCompose, singleDockerfileProject, type Project } from './compose.js';

export const COMPOSE_FILES = ['docker-compose.yml', 'docker-compose.yaml'] as const;

export interface LoadedProject extends Project {
  /** Absolute project directory. */
  dir: string;
  /** Which file described it: a compose file name, or `Dockerfile`. */
  source: string;
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isFile(), () => false);
}
async function isDir(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isDirectory(), () => false);
}

/**
 * The project in `dir`: its docker-compose.yml (or .yaml), else a lone Dockerfile as one
 * service `main`. Build contexts and Dockerfiles must exist; every problem is reported.
 */
export async function loadProject(dir: string): Promise<LoadedProject> {
  const root = resolve(dir);
  if (!(await isDir(root))) throw new ComposeError([`${root} is not a directory`]);
  let project: Project | undefined;
  let source = '';
  for (const name of COMPOSE_FILES) {
    const path = join(root, name);
    if (!(await isFile(path))) continue;
    if ((await stat(path)).size > MAX_COMPOSE_BYTES) throw new ComposeError([`${name} is larger than ${MAX_COMPOSE_BYTES} bytes`]);
    try {
      project = parseCompose(await readFile(path, 'utf8'));
    } catch (err) {
      if (err instanceof ComposeError) throw new ComposeError(err.problems.map((p) => `${name}: ${p}`));
      throw err;
    }
    source = name;
    break;
  }
  if (!project) {
    if (!(await isFile(join(root, 'Dockerfile')))) {
      throw new ComposeError([`${root} has no docker-compose.yml, docker-compose.yaml or Dockerfile`]);
    }
    project = singleDockerfileProject();
    source = 'Dockerfile';
  }
  const problems: string[] = [];
  for (const service of project.services) {
    if (!service.build) continue;
    const context = isAbsolute(service.build.context) ? service.build.context : join(root, service.build.context);
    if (!(await isDir(context))) {
      problems.push(`service "${service.name}": build context "${service.build.context}" is not a directory`);
    } else if (!(await isFile(join(context, service.build.dockerfile)))) {
      problems.push(`service "${service.name}": ${service.build.dockerfile} not found in "${service.build.context}"`);
    }
  }
  if (problems.length) throw new ComposeError(problems);
  return { ...project, dir: root, source };
}

/** Absolute build context of a service. */
export function contextDir(project: LoadedProject, context: string): string {
  return isAbsolute(context) ? context : join(project.dir, context);
}
