import { readFile, stat } from 'node:fs/promises';
// The largest build the server accepts (checked here too, before uploading) and its answer's rows.
import { MAX_AGENT_BUILD_BYTES, type PublishedSupervisorRelease } from '@flotilla/model';
import type { CliOutput } from './output.js';

/** The server's answer to a refused request: its message (a JSON string) and the status. */
export class PublishError extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
  ) {
    super(message);
  }
}

/**
 * Publishes the agent build at `file` as supervisor release `version` of `arch` (a CPU
 * architecture or `all`) through `POST /admin/v1/supervisor-releases` (platform administrators).
 */
export async function publishSupervisorRelease(
  apiUrl: string,
  token: string,
  options: { version: string; arch: string; file: string },
  out: CliOutput,
  fetchImpl: typeof fetch = fetch,
): Promise<PublishedSupervisorRelease[]> {
  const info = await stat(options.file).catch(() => undefined);
  if (!info?.isFile()) throw new Error(`--file ${options.file}: no such file`);
  if (info.size > MAX_AGENT_BUILD_BYTES) throw new Error(`--file ${options.file} is larger than ${MAX_AGENT_BUILD_BYTES / (1024 * 1024)} MB`);
  const body = await readFile(options.file);
  out.stdout(`Publishing ${options.file} (${body.length} bytes) as supervisor ${options.version} for ${options.arch === 'all' ? 'every architecture' : options.arch}…\n`);
  const url = `${apiUrl}/admin/v1/supervisor-releases?${new URLSearchParams({ version: options.version, arch: options.arch }).toString()}`;
  const res = await fetchImpl(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, body });
  const text = await res.text();
  if (res.status !== 201) {
    let message = text;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'string') message = parsed;
    } catch {
      // not JSON: the text as it came
    }
    throw new PublishError(`the server refused the release: ${message}`, res.status);
  }
  const { releases } = JSON.parse(text) as { releases: PublishedSupervisorRelease[] };
  for (const r of releases) out.stdout(`  ${r.arch}: release ${r.id}, supervisor ${r.version}, sha256 ${r.sha256}\n`);
  out.stdout(`Published supervisor ${options.version} (${releases.length} release${releases.length === 1 ? '' : 's'}).\n`);
  return releases;
}
