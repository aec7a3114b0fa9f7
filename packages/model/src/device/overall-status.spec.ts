import { describe, expect, it } from 'vitest';
import { deviceOverallProgress, deviceOverallStatus, type DeviceStatusFacts } from './overall-status.js';

const ONCE = '2026-01-01T00:00:00.000Z';
/** An active, connected, idle, provisioned device. */
const BASE: DeviceStatusFacts = {
  is_active: true,
  provisioning_state: '',
  provisioning_progress: null,
  is_online: true,
  api_heartbeat_state: 'online',
  last_connectivity_event: ONCE,
  status: 'Idle',
  download_progress: null,
};

// [name, facts, overall_status, overall_progress]: the precedence, one step at a time.
const TABLE: [string, Partial<DeviceStatusFacts>, string, number | null][] = [
  ['inactive beats downloading', { is_active: false, status: 'Downloading', download_progress: 30 }, 'inactive', null],
  ['post-provisioning while offline', { provisioning_state: 'Post-Provisioning', provisioning_progress: 90, is_online: false, api_heartbeat_state: 'offline' }, 'post-provisioning', 90],
  ['never connected, provisioning', { is_online: false, api_heartbeat_state: 'unknown', last_connectivity_event: null, provisioning_progress: 45 }, 'configuring', 45],
  ['no connectivity event but heartbeat offline', { is_online: false, api_heartbeat_state: 'offline', last_connectivity_event: null }, 'disconnected', null],
  ['disconnected while downloading', { is_online: false, api_heartbeat_state: 'unknown', status: 'Downloading', download_progress: 50 }, 'disconnected', null],
  ['reduced: link up, heartbeat timed out', { api_heartbeat_state: 'timeout' }, 'reduced-functionality', null],
  ['reduced while downloading', { is_online: false, status: 'Downloading', download_progress: 20 }, 'reduced-functionality', 20],
  ['link down, heartbeat timed out: not reduced', { is_online: false, api_heartbeat_state: 'timeout' }, 'operational', null],
  ['updating: downloading with a progress', { status: 'Downloading', download_progress: 40 }, 'updating', 40],
  ['downloading without a progress', { status: 'Downloading' }, 'operational', null],
  ['downloading beats a provisioning progress', { provisioning_progress: 60, status: 'Downloading', download_progress: 15 }, 'updating', 15],
  ['connected with a provisioning progress', { provisioning_progress: 60 }, 'configuring', 60],
  ['operational', {}, 'operational', null],
];

describe('deviceOverallStatus and deviceOverallProgress', () => {
  it.each(TABLE)('%s', (_name, facts, status, progress) => {
    const d = { ...BASE, ...facts };
    expect(deviceOverallStatus(d)).toBe(status);
    expect(deviceOverallProgress(d)).toBe(progress);
  });
});
