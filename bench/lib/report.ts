import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { BenchConfig } from './config.js';
import type { Row } from './evaluate.js';
import type { BaselineFigures } from './phases.js';

const COLUMNS: { title: string; cell: (r: Row) => string }[] = [
  { title: '', cell: (r) => `(${r.id})` },
  { title: 'measurement', cell: (r) => r.name },
  { title: 'figure', cell: (r) => r.value },
  { title: 'ratio', cell: (r) => r.ratio },
  { title: 'target', cell: (r) => r.target },
  { title: 'result', cell: (r) => r.status },
];

/** The report as plain text: baseline figures, the table, then notes for rows that need one. */
export function formatReport(header: string, config: BenchConfig, base: BaselineFigures | undefined, rows: Row[]): string {
  const lines = [
    header,
    '',
    ...(base ? baselineLines(config, base) : []),
    ...table(rows),
  ];
  const notes = rows.filter((r) => r.note);
  if (notes.length > 0) {
    lines.push('', ...notes.map((r) => `(${r.id}) ${r.name}: ${r.note}`));
  }
  return lines.join('\n') + '\n';
}

function baselineLines(config: BenchConfig, base: BaselineFigures): string[] {
  return [
    `Baseline (bare node:http): ${base.load.rps.toFixed(0)} req/s at ${config.connections} connections, ` +
      `${base.overload.rps.toFixed(0)} req/s at ${config.overloadConnections} connections, ` +
      `p50 ${base.latency.p50Ms.toFixed(2)} ms sequential, ` +
      `RSS ${base.rssIdleMb.toFixed(0)} MB idle / ${base.rssPeakMb.toFixed(0)} MB peak.`,
    `balena-sdk client ceiling (the (b) loop against a canned 50-row page from the baseline): ` +
      `${base.sdkCeiling.rps.toFixed(0)} req/s.`,
    '',
  ];
}

function table(rows: Row[]): string[] {
  const cells = [COLUMNS.map((c) => c.title), ...rows.map((r) => COLUMNS.map((c) => c.cell(r)))];
  const widths = COLUMNS.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)));
  const render = (line: string[]) => line.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  return [render(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(render)];
}

export async function writeJson(path: string, data: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(data, null, 2) + '\n');
}
