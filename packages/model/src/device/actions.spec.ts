import { describe, expect, it } from 'vitest';
import { DEVICE_MENU_ACTION_NAMES, DEVICE_MENU_ACTIONS, isFullyProvisioned, SUPERVISOR_ACTIONS, supervisorActionProblem, UPDATE_LOCKED_ACTIONS } from './actions.js';
import { DEVICE_RULE_MESSAGES } from './device.rules.js';

describe('device actions', () => {
  it('lists the menu in the spec order, each sending a supervisor action', () => {
    expect(DEVICE_MENU_ACTION_NAMES).toEqual(['identify', 'restart', 'reboot', 'shutdown', 'purge']);
    for (const a of DEVICE_MENU_ACTION_NAMES) expect(SUPERVISOR_ACTIONS).toContain(DEVICE_MENU_ACTIONS[a].supervisor);
  });

  it('holds back what interrupts services under the update lock, never the reads', () => {
    for (const a of ['reboot', 'shutdown', 'restart', 'purge', 'stop-service'] as const) expect(UPDATE_LOCKED_ACTIONS.has(a)).toBe(true);
    for (const a of ['ping', 'device', 'blink', 'update'] as const) expect(UPDATE_LOCKED_ACTIONS.has(a)).toBe(false);
  });

  it('a device is fully provisioned once past configuring and post-provisioning', () => {
    expect(isFullyProvisioned('operational')).toBe(true);
    expect(isFullyProvisioned('disconnected')).toBe(true);
    expect(isFullyProvisioned('configuring')).toBe(false);
    expect(isFullyProvisioned('post-provisioning')).toBe(false);
    expect(isFullyProvisioned(null)).toBe(false);
  });

  it('names the unmet need of an action, with a message for each', () => {
    const ready = { overall_status: 'operational', led: true };
    expect(supervisorActionProblem('blink', { ...ready, led: false })).toBe('no_blink_support');
    expect(supervisorActionProblem('reboot', { ...ready, overall_status: 'configuring' })).toBe('not_fully_provisioned');
    expect(supervisorActionProblem('purge', { ...ready, overall_status: 'post-provisioning' })).toBe('not_fully_provisioned');
    // Restart and identify do not wait for provisioning; reboot needs no LED.
    expect(supervisorActionProblem('restart', { ...ready, overall_status: 'configuring' })).toBeUndefined();
    expect(supervisorActionProblem('blink', { ...ready, overall_status: 'configuring' })).toBeUndefined();
    expect(supervisorActionProblem('reboot', { ...ready, led: false })).toBeUndefined();
    expect(supervisorActionProblem('restart', { ...ready, local_mode: true })).toBe('not_available_in_local_mode');
    expect(supervisorActionProblem('purge', { ...ready, local_mode: true })).toBe('not_available_in_local_mode');
    expect(supervisorActionProblem('reboot', { ...ready, local_mode: true })).toBeUndefined();
    expect(supervisorActionProblem('restart', { ...ready, local_mode: false })).toBeUndefined();
    for (const key of ['no_blink_support', 'not_fully_provisioned'] as const) expect(DEVICE_RULE_MESSAGES[key]).toBeTruthy();
  });
});
