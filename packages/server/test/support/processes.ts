import { readdirSync, readFileSync } from 'node:fs';

/** Linux: the processes whose parent is `parent` (from /proc). */
export function childrenOf(parent: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
