import type { Outcome } from './outcome.js';
import type { BaselineFigures, FlotillaFigures } from './phases.js';

export type Status = 'PASS' | 'MISS' | 'ERROR';

/** One line of the report: a figure, its ratio to the baseline of the same run, and its target. */
export interface Row {
  id: string;
  name: string;
  value: string;
  ratio: string;
  target: string;
  status: Status;
  note?: string;
}

/** The targets; they live only in the report (the bench never fails on a MISS). */
export const TARGETS = {
  listRpsPercent: 5,
  sdkRpsPercent: 5,
  loginP50Ms: 40,
  overloadTimeouts: 0,
  overloadErrors: 0,
  rssIdleMb: 150,
  rssPeakMb: 300,
  state304RpsPercent: 25,
  state200RpsPercent: 3,
  reportRpsPercent: 4,
  registerP50Ms: 10,
} as const;

export function evaluate(base: BaselineFigures, flotilla: FlotillaFigures, overloadConnections: number): Row[] {
  return [
    row('a', 'fleet list GET (HTTP)', flotilla.list, (r) => {
      const pct = percentOf(r.rps, base.load.rps);
      const failures = r.non2xx + r.timeouts + r.connectionErrors;
      return {
        value: `${fmt(r.rps, 0)} req/s`,
        ratio: `${fmt(pct, 2)} % of baseline`,
        target: `≥ ${TARGETS.listRpsPercent} %`,
        pass: pct >= TARGETS.listRpsPercent && failures === 0,
        note: failures > 0 ? `${failures} failed requests (${describeStatus(r.statusCodes)})` : undefined,
      };
    }),
    row('b', 'fleet list via balena-sdk', flotilla.sdk, (r) => {
      const pct = percentOf(r.rps, base.load.rps);
      return {
        value: `${fmt(r.rps, 0)} req/s`,
        ratio: `${fmt(pct, 2)} % of baseline`,
        target: `≥ ${TARGETS.sdkRpsPercent} %`,
        pass: pct >= TARGETS.sdkRpsPercent && r.errors === 0,
        note:
          `${fmt(percentOf(r.rps, base.sdkCeiling.rps), 1)} % of the SDK client ceiling` +
          (r.errors > 0 ? `; ${r.errors} failed calls, first: ${r.firstError ?? '?'}` : ''),
      };
    }),
    row('c', 'POST /login_ p50', flotilla.login, (r) => ({
      value: `${fmt(r.p50Ms, 1)} ms`,
      ratio: `× ${fmt(r.p50Ms / base.latency.p50Ms, 1)} baseline p50`,
      target: `≤ ${TARGETS.loginP50Ms} ms`,
      pass: r.p50Ms <= TARGETS.loginP50Ms,
    })),
    row('d', `fleet list, ${overloadConnections} connections`, flotilla.overload, (r) => {
      const errors = r.non2xx + r.connectionErrors;
      return {
        value: `${r.timeouts} timeouts, ${errors} errors`,
        ratio: `${fmt(percentOf(r.rps, base.overload.rps), 2)} % of baseline req/s`,
        target: `${TARGETS.overloadTimeouts} and ${TARGETS.overloadErrors}`,
        pass: r.timeouts <= TARGETS.overloadTimeouts && errors <= TARGETS.overloadErrors,
        note:
          `${fmt(r.rps, 0)} req/s, p99 ${fmt(r.latencyP99Ms, 0)} ms` +
          (r.unknownStatus > 0 ? `; ${r.unknownStatus} responses without a status after timeouts` : '') +
          (errors > 0
            ? `; ${r.non2xx} non-2xx (${describeStatus(r.statusCodes)}), ${r.connectionErrors} connection errors`
            : ''),
      };
    }),
    row('e', 'server RSS idle', flotilla.rssIdleMb, (mb) => ({
      value: `${fmt(mb, 0)} MB`,
      ratio: `× ${fmt(mb / base.rssIdleMb, 1)} baseline`,
      target: `≤ ${TARGETS.rssIdleMb} MB`,
      pass: mb <= TARGETS.rssIdleMb,
    })),
    row('e', 'server RSS peak under load', flotilla.rssPeakMb, (mb) => ({
      value: `${fmt(mb, 0)} MB`,
      ratio: `× ${fmt(mb / base.rssPeakMb, 1)} baseline`,
      target: `≤ ${TARGETS.rssPeakMb} MB`,
      pass: mb <= TARGETS.rssPeakMb,
    })),
  ];
}

interface Judged {
  value: string;
  ratio: string;
  target: string;
  pass: boolean;
  note?: string | undefined;
}

export function row<T>(id: string, name: string, outcome: Outcome<T>, judge: (value: T) => Judged): Row {
  if (!outcome.ok) return { id, name, value: '—', ratio: '—', target: '', status: 'ERROR', note: outcome.error };
  const { pass, note, ...shown } = judge(outcome.value);
  return { id, name, ...shown, status: pass ? 'PASS' : 'MISS', ...(note ? { note } : {}) };
}

export function percentOf(value: number, baseline: number): number {
  return (value / baseline) * 100;
}

export function fmt(n: number, digits: number): string {
  return Number.isFinite(n) ? n.toFixed(digits) : String(n);
}

function describeStatus(codes: Record<string, number>): string {
  return Object.entries(codes)
    .map(([code, count]) => `${code}: ${count}`)
    .join(', ');
}
