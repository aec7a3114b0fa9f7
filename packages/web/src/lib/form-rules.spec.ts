import { fleetNameProblem, parseReleaseSemver, passwordProblem, SEMVER_THREE_PART_MESSAGE } from '@flotilla/model';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { matchingConfirmation, newPassword, optionalText, requiredText, ruledText } from './form-rules';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('form rules from the model', () => {
  it("refuses what the model's rule refuses, with the model's text", () => {
    const schema = z.object({ name: ruledText(fleetNameProblem) });
    expect(firstMessage(schema.safeParse({ name: 'ab' }))).toBe(fleetNameProblem('ab'));
    expect(firstMessage(schema.safeParse({ name: 'has space' }))).toBe(fleetNameProblem('has space'));
    expect(schema.safeParse({ name: 'my-fleet' }).success).toBe(true);
  });

  it('checks the trimmed value', () => {
    const semver = ruledText((v) => (parseReleaseSemver(v) ? undefined : SEMVER_THREE_PART_MESSAGE));
    expect(semver.parse(' 1.2.3 ')).toBe('1.2.3');
    expect(firstMessage(semver.safeParse('1.2'))).toBe(SEMVER_THREE_PART_MESSAGE);
  });

  it('a required text refuses blanks with the given message; an optional one turns empty into undefined', () => {
    expect(firstMessage(requiredText('Name is required').safeParse('   '))).toBe('Name is required');
    expect(requiredText('x').parse(' a ')).toBe('a');
    expect(optionalText().parse('  ')).toBeUndefined();
    expect(optionalText().parse(' note ')).toBe('note');
  });
});

describe('a new password and its confirmation', () => {
  const schema = z.object({ password: newPassword(), confirmPassword: z.string() }).check(matchingConfirmation('Passwords do not match'));

  it("refuses a password outside 8 to 64 characters with the model's text", () => {
    expect(firstMessage(schema.safeParse({ password: 'short', confirmPassword: 'short' }))).toBe(passwordProblem('short'));
    const long = 'x'.repeat(65);
    expect(firstMessage(schema.safeParse({ password: long, confirmPassword: long }))).toBe(passwordProblem(long));
  });

  it('says a confirmation that differs under the confirmation field', () => {
    const result = schema.safeParse({ password: 'long-enough', confirmPassword: 'different' });
    expect(result.error?.issues[0]).toMatchObject({ path: ['confirmPassword'], message: 'Passwords do not match' });
    expect(schema.safeParse({ password: 'long-enough', confirmPassword: 'long-enough' }).success).toBe(true);
  });
});
