import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * axe-core (from node_modules, no network) over the page or the elements matching `include`:
 * its serious and critical violations. axe is injected as an inline script, so the spec runs
 * with `test.use({ bypassCSP: true })`.
 */
export async function seriousViolations(page: Page, include?: string[]): Promise<string[]> {
  await page.addScriptTag({ path: AXE_SOURCE });
  const violations = await page.evaluate(async (parts) => {
    const axe = (window as unknown as { axe: { run: (ctx: Document | { include: string[][] }, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(parts ? { include: parts.map((p) => [p]) } : document, { resultTypes: ['violations'] });
    return result.violations;
  }, include);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}
