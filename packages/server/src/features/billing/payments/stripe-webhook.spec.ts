import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../infra/errors.js';
import { parseSignatureHeader, signPayload, verifySignature, WEBHOOK_MESSAGES, WEBHOOK_TOLERANCE_SECONDS } from './stripe-webhook.js';

/* The Stripe-Signature check of POST /billing/v1/stripe/webhook (docs/billing.md "Stripe webhooks"). */
const secret = 'whsec_unit';
const payload = Buffer.from('{"id":"evt_1","type":"payment_intent.succeeded","data":{"object":{}}}');
const t = 1_800_000_000;
const nowMs = t * 1000;
const refusal = (header: string | undefined, at = nowMs): string | null => {
  try {
    verifySignature(secret, header, payload, at);
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).statusCode).toBe(400);
    return (err as Error).message;
  }
};

describe('Stripe-Signature', () => {
  it('is HMAC-SHA256 of "<t>.<payload>" in hex, as Stripe signs', () => {
    // Known answer: computed independently with `printf '%s' "1800000000.<payload>" | openssl dgst -sha256 -hmac whsec_unit`.
    expect(signPayload(secret, t, payload)).toBe('b89f6e32604e1dd655c0aa8cb927e68d331cd4479d6fb0557fce641678677ad4');
    expect(signPayload(secret, t, payload)).toBe(signPayload(secret, t, payload.toString('utf8')));
    expect(signPayload(secret, t + 1, payload)).not.toBe(signPayload(secret, t, payload));
  });

  it('parses t and every v1, ignoring other schemes and junk', () => {
    const a = 'a'.repeat(64);
    const b = 'B'.repeat(64);
    expect(parseSignatureHeader(`t=${t},v1=${a},v0=${'c'.repeat(64)},v1=${b},junk`)).toEqual({ timestamp: t, signatures: [a, b.toLowerCase()] });
    expect(parseSignatureHeader('v1=short,t=soon')).toEqual({ timestamp: null, signatures: [] });
  });

  it('accepts a matching v1 among several (secret rotation), within the tolerance either way', () => {
    const good = signPayload(secret, t, payload);
    expect(refusal(`t=${t},v1=${'0'.repeat(64)},v1=${good}`)).toBeNull();
    expect(refusal(`t=${t},v1=${good}`, nowMs + WEBHOOK_TOLERANCE_SECONDS * 1000)).toBeNull();
    expect(refusal(`t=${t},v1=${good}`, nowMs - WEBHOOK_TOLERANCE_SECONDS * 1000)).toBeNull();
  });

  it('refuses a missing header, a v0-only or wrong signature, another payload and a stale timestamp', () => {
    const good = signPayload(secret, t, payload);
    expect(refusal(undefined)).toBe(WEBHOOK_MESSAGES.missingSignature);
    expect(refusal(`t=${t},v0=${good}`)).toBe(WEBHOOK_MESSAGES.badSignature);
    expect(refusal(`t=${t},v1=${signPayload('whsec_other', t, payload)}`)).toBe(WEBHOOK_MESSAGES.badSignature);
    expect(refusal(`t=${t + 1},v1=${good}`)).toBe(WEBHOOK_MESSAGES.badSignature);
    expect(refusal(`t=${t},v1=${good}`, nowMs + (WEBHOOK_TOLERANCE_SECONDS + 1) * 1000)).toBe(WEBHOOK_MESSAGES.staleSignature);
    expect(refusal(`t=${t},v1=${good}`, nowMs - (WEBHOOK_TOLERANCE_SECONDS + 1) * 1000)).toBe(WEBHOOK_MESSAGES.staleSignature);
  });
});
