import { passwordProblem } from '@flotilla/model';
import { z } from 'zod/mini';

/**
 * zod checks made from the model's rules (`@flotilla/model`: `fleetNameProblem`,
 * `validateSshKey`, `parseReleaseSemver` …), so a form refuses exactly what the server
 * refuses, with the model's text. A rule answers the problem's text, or undefined.
 */
export type Rule<T> = (value: T) => string | undefined;

/** A check that adds the rule's text as the field's error. */
export function ruleCheck<T>(rule: Rule<T>) {
  return z.superRefine<T>((value, ctx) => {
    const problem = rule(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, input: value });
  });
}

/** A text field whose value is trimmed and then checked by a model rule. */
export function ruledText(rule: Rule<string>) {
  return z.string().check(z.trim(), ruleCheck(rule));
}

/** A mandatory text field, trimmed: empty (or only spaces) is `message`. */
export function requiredText(message: string, maxLength?: number) {
  return maxLength === undefined
    ? z.string().check(z.trim(), z.minLength(1, message))
    : z.string().check(z.trim(), z.minLength(1, message), z.maxLength(maxLength));
}

/** An optional text field, trimmed; empty becomes undefined. */
export function optionalText(maxLength?: number) {
  const text = maxLength === undefined ? z.string().check(z.trim()) : z.string().check(z.trim(), z.maxLength(maxLength));
  return z.pipe(
    text,
    z.transform((v) => (v === '' ? undefined : v)),
  );
}

/** A new password: the model's rule (spec 1 §5, 8 to 64 characters) with the model's text. */
export function newPassword() {
  return z.string().check(ruleCheck(passwordProblem));
}

/** The confirmation field must repeat the new password; `mismatch` is said under it. */
export function matchingConfirmation(mismatch: string) {
  return z.refine<{ password: string; confirmPassword: string }>((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], error: mismatch });
}
