import { describe, expect, it } from 'vitest';
import { containerControlsShown, containerTone, serviceActionDisabledReason, showsDownloadProgress } from './service-rules';

describe('containerTone', () => {
  it('follows spec 2 §4 Container status', () => {
    expect(containerTone('Running')).toBe('good');
    expect(containerTone('Idle')).toBe('good');
    expect(containerTone('Stopped')).toBe('bad');
    expect(containerTone('exited')).toBe('bad');
    for (const s of ['Downloading', 'Installing', 'Starting', 'Updating', null]) expect(containerTone(s), String(s)).toBe('progress');
  });

  it('shows a percentage while downloading or updating only', () => {
    expect(showsDownloadProgress('Downloading')).toBe(true);
    expect(showsDownloadProgress('updating')).toBe(true);
    expect(showsDownloadProgress('Running')).toBe(false);
  });
});

describe('containerControlsShown', () => {
  it('needs supervisor 7 or more than one service', () => {
    expect(containerControlsShown('7.0.0', 1)).toBe(true);
    expect(containerControlsShown('16.4.1', 1)).toBe(true);
    expect(containerControlsShown('6.9.9', 1)).toBe(false);
    expect(containerControlsShown(null, 1)).toBe(false);
    expect(containerControlsShown('6.0.0', 2)).toBe(true);
  });
});

describe('serviceActionDisabledReason', () => {
  const ok = { allowed: true, busy: false, isOnline: true, status: 'Running' };
  it('puts permission, an ongoing action and the link first', () => {
    expect(serviceActionDisabledReason('restart', { ...ok, allowed: false, busy: true })).toBe('permission_denied');
    expect(serviceActionDisabledReason('restart', { ...ok, busy: true, isOnline: false })).toBe('ongoing_action');
    expect(serviceActionDisabledReason('restart', { ...ok, isOnline: false })).toBe('device_must_be_online');
  });

  it('then the container state', () => {
    expect(serviceActionDisabledReason('start', ok)).toBe('service_already_running');
    expect(serviceActionDisabledReason('stop', ok)).toBeUndefined();
    expect(serviceActionDisabledReason('restart', ok)).toBeUndefined();
    expect(serviceActionDisabledReason('stop', { ...ok, status: 'Stopped' })).toBe('service_not_running');
    expect(serviceActionDisabledReason('start', { ...ok, status: 'Stopped' })).toBeUndefined();
    expect(serviceActionDisabledReason('restart', { ...ok, status: 'exited' })).toBe('service_not_running');
    expect(serviceActionDisabledReason('restart', { ...ok, status: 'Stopped' })).toBeUndefined();
  });
});
