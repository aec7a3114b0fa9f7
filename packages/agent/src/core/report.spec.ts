import { describe, expect, it } from 'vitest';
import { buildReport, diffReport, mergeSent, supervisorDeviceState, type DeviceFacts } from './report.js';

const rel = (commit: string) => ({ commit, id: 1, services: [{ name: 'main', id: 1, imageId: 2, image: `img-${commit}` }] });
const facts = (over: Partial<DeviceFacts> = {}): DeviceFacts => ({
  osVersion: 'balenaOS 6.0.10',
  osVariant: 'prod',
  supervisorVersion: '14.0.0',
  ipAddress: '10.0.0.2',
  macAddress: '02:00:00:00:00:01',
  isUndervolted: false,
  metrics: { cpu_usage: 20, cpu_temp: 45, memory_usage: 400, memory_total: 1000, storage_usage: 5000, storage_total: 30000, storage_block_device: null, cpu_id: null },
  appUuid: 'app-uuid',
  running: rel('old'),
  serviceStatus: { main: 'Running' },
  installing: null,
  update: null,
  ...over,
});

describe('building the v3 state report', () => {
  it('reports versions, network, metrics and the running release', () => {
    const r = buildReport(facts());
    expect(r).toMatchObject({ status: 'Idle', os_version: 'balenaOS 6.0.10', ip_address: '10.0.0.2', update_status: 'done', cpu_usage: 20, memory_total: 1000 });
    expect(r.apps).toEqual({
      'app-uuid': { release_uuid: 'old', releases: { old: { update_status: 'done', services: { main: { image: 'img-old', status: 'Running', download_progress: null } } } } },
    });
  });

  it('reports the downloading release with its progress beside the one that runs', () => {
    const r = buildReport(facts({ installing: rel('new'), update: { phase: 'downloading', progress: 40 } }));
    expect(r).toMatchObject({ status: 'Downloading', update_status: 'downloading', download_progress: 40 });
    const app = (r.apps as Record<string, { release_uuid: string; releases: Record<string, unknown> }>)['app-uuid']!;
    expect(app.release_uuid).toBe('old');
    expect(app.releases.new).toEqual({ update_status: 'downloading', services: { main: { image: 'img-new', status: 'Downloading', download_progress: 40 } } });
  });

  it('shows a stopped service as stopped', () => {
    const r = buildReport(facts({ serviceStatus: { main: 'Stopped' } }));
    expect(JSON.stringify(r.apps)).toContain('"status":"Stopped"');
  });

  it('includes coordinates only when the device has them', () => {
    expect('latitude' in buildReport(facts())).toBe(false);
    expect(buildReport(facts({ latitude: '38.1', longitude: '23.7' }))).toMatchObject({ latitude: '38.1', longitude: '23.7' });
  });
});

describe("the supervisor's state (GET /v1/device, the `device` action)", () => {
  it('says Idle with the running commit when nothing is under way', () => {
    expect(supervisorDeviceState(facts())).toEqual({
      api_port: null,
      status: 'Idle',
      commit: 'old',
      download_progress: null,
      update_pending: false,
      update_downloaded: false,
      update_failed: false,
      os_version: 'balenaOS 6.0.10',
      supervisor_version: '14.0.0',
      ip_address: '10.0.0.2',
      mac_address: '02:00:00:00:00:01',
    });
  });

  it('shows a download with its progress, then a downloaded update being applied', () => {
    expect(supervisorDeviceState(facts({ installing: rel('new'), update: { phase: 'downloading', progress: 40 } }))).toMatchObject({
      status: 'Downloading',
      download_progress: 40,
      update_pending: true,
      update_downloaded: false,
    });
    expect(supervisorDeviceState(facts({ installing: rel('new'), update: { phase: 'applying changes', progress: 100 } }))).toMatchObject({
      status: 'Updating',
      download_progress: null,
      update_pending: true,
      update_downloaded: true,
    });
    expect(supervisorDeviceState(facts({ running: null })).commit).toBeNull();
  });
});

describe('throttled report diffs', () => {
  const first = buildReport(facts());

  it('sends everything the first time', () => {
    expect(diffReport(null, first, true)).toEqual(first);
  });

  it('sends nothing when nothing changed', () => {
    expect(diffReport(first, buildReport(facts()), true)).toBeNull();
  });

  it('leaves out metric moves below their threshold and sends significant ones', () => {
    const small = facts({ metrics: { ...facts().metrics!, cpu_usage: 25, memory_usage: 420, cpu_temp: 46 } });
    expect(diffReport(first, buildReport(small), true)).toBeNull();
    const big = facts({ metrics: { ...facts().metrics!, cpu_usage: 75, memory_usage: 700 } });
    expect(diffReport(first, buildReport(big), true)).toEqual({ cpu_usage: 75, memory_usage: 700 });
  });

  it('leaves metrics out entirely inside the metrics interval but still sends status changes', () => {
    const next = buildReport(facts({ metrics: { ...facts().metrics!, cpu_usage: 99 }, installing: rel('new'), update: { phase: 'downloading', progress: 10 } }));
    const diff = diffReport(first, next, false)!;
    expect(diff).not.toHaveProperty('cpu_usage');
    expect(diff).toMatchObject({ status: 'Downloading', update_status: 'downloading', download_progress: 10 });
    expect(diff).toHaveProperty('apps');
  });

  it('remembers what the server holds after a diff', () => {
    const diff = { cpu_usage: 90 };
    expect(mergeSent(first, diff)).toEqual({ ...first, cpu_usage: 90 });
  });
});
