import { CONTACT_SALES_CENTS, CREDIT_PURCHASE_MAX, RUNWAY_MAX_MONTHS } from '@flotilla/model';
import { describe, expect, it } from 'vitest';
import { countedCreditBalance, planSupportsCredits } from '../../lib/billing-rules';
import { creditsSummaryAction, isContactSalesTotal, parseBoundedCount, parseCreditQuantity, parseThreshold } from './credits-rules';

describe('parseCreditQuantity (spec 3 §5)', () => {
  it('strips every non-digit', () => {
    expect(parseCreditQuantity('1,2a3')).toBe(123);
    expect(parseCreditQuantity('-5')).toBe(5);
    expect(parseCreditQuantity('2.5')).toBe(25);
  });
  it('is 0 when nothing is left', () => {
    expect(parseCreditQuantity('')).toBe(0);
    expect(parseCreditQuantity('abc')).toBe(0);
  });
  it('caps at CREDIT_PURCHASE_MAX', () => {
    expect(parseCreditQuantity(String(CREDIT_PURCHASE_MAX))).toBe(CREDIT_PURCHASE_MAX);
    expect(parseCreditQuantity(String(CREDIT_PURCHASE_MAX + 1))).toBe(CREDIT_PURCHASE_MAX);
    expect(parseCreditQuantity('9'.repeat(40))).toBe(CREDIT_PURCHASE_MAX);
  });
});

describe('parseBoundedCount', () => {
  it('caps the runway months at their max', () => {
    expect(parseBoundedCount('121', RUNWAY_MAX_MONTHS)).toBe(RUNWAY_MAX_MONTHS);
    expect(parseBoundedCount('12', RUNWAY_MAX_MONTHS)).toBe(12);
    expect(parseBoundedCount('', RUNWAY_MAX_MONTHS)).toBe(0);
  });
});

describe('the contact-sales total (spec 3 §4)', () => {
  it('starts at CONTACT_SALES_CENTS', () => {
    expect(isContactSalesTotal(CONTACT_SALES_CENTS - 1)).toBe(false);
    expect(isContactSalesTotal(CONTACT_SALES_CENTS)).toBe(true);
  });
});

describe('the summary action (spec 3 §2)', () => {
  it('is upgrade plan off the credit plans, whatever the payment method', () => {
    expect(creditsSummaryAction({ supportsCredits: false, hasPaymentMethod: true })).toBe('upgrade-plan');
    expect(creditsSummaryAction({ supportsCredits: false, hasPaymentMethod: false })).toBe('upgrade-plan');
  });
  it('asks for a payment method before credits can be bought', () => {
    expect(creditsSummaryAction({ supportsCredits: true, hasPaymentMethod: false })).toBe('add-payment-method');
    expect(creditsSummaryAction({ supportsCredits: true, hasPaymentMethod: true })).toBe('add-credits');
  });
  it('credits only on pilot-v2, production-v2 and enterprise-v2', () => {
    expect(['free', 'prototype-v2', 'pilot-v2', 'production-v2', 'enterprise-v2', 'pilot'].filter(planSupportsCredits)).toEqual(['pilot-v2', 'production-v2', 'enterprise-v2']);
  });
});

describe('the threshold (spec 3 §5)', () => {
  it('is a whole number from 0 to the max', () => {
    expect(parseThreshold('0')).toBe(0);
    expect(parseThreshold(' 40 ')).toBe(40);
    expect(parseThreshold('-1')).toBeNull();
    expect(parseThreshold('1.5')).toBeNull();
    expect(parseThreshold('')).toBeNull();
    expect(parseThreshold(String(CREDIT_PURCHASE_MAX + 1))).toBeNull();
  });
});

describe('countedCreditBalance (spec 3 §4)', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  const later = '2036-11-27T12:00:00Z';
  it('sums only paid, complimentary and manually invoiced bundles', () => {
    const statuses = ['processing', 'paid', 'failed', 'complimentary', 'cancelled', 'refunded', 'manually invoiced'];
    const bundles = statuses.map((payment_status, i) => ({ payment_status, available_balance: 10 ** i, expires_on__date: later }));
    expect(countedCreditBalance(bundles, now)).toBe(10 + 1000 + 1_000_000);
    expect(countedCreditBalance([], now)).toBe(0);
  });
  it('leaves out expired bundles', () => {
    const bundles = [
      { payment_status: 'paid', available_balance: 5, expires_on__date: '2026-11-27T11:59:59Z' },
      { payment_status: 'paid', available_balance: 7, expires_on__date: later },
    ];
    expect(countedCreditBalance(bundles, now)).toBe(7);
  });
});
