import { describe, expect, it } from 'vitest';
import { accountDeletionErrorText, CUSTOM_PLAN_REFUSAL, isCustomPlanCode } from './account-deletion.js';

describe('account deletion rules', () => {
  it('appends a period and the contact-support sentence to other errors', () => {
    expect(accountDeletionErrorText('Could not cancel the subscription')).toBe('Could not cancel the subscription. Please contact support.');
    expect(accountDeletionErrorText('Something failed.')).toBe('Something failed. Please contact support.');
  });

  it('leaves text that already says to contact support or sales as it is', () => {
    expect(accountDeletionErrorText(CUSTOM_PLAN_REFUSAL)).toBe(CUSTOM_PLAN_REFUSAL);
    expect(accountDeletionErrorText('Please contact support to continue')).toBe('Please contact support to continue');
  });

  it('recognises custom plan codes only', () => {
    expect(isCustomPlanCode('custom')).toBe(true);
    expect(isCustomPlanCode('custom-enterprise')).toBe(true);
    expect(isCustomPlanCode('free')).toBe(false);
    expect(isCustomPlanCode('customer')).toBe(false);
    expect(isCustomPlanCode(null)).toBe(false);
  });
});
