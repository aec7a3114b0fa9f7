#!/usr/bin/env node
// Runs the TypeScript CLI without a build step: tsx's loader is registered first,
// then src/cli.ts and src/runner.ts are imported as-is.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
const { runCommand } = await import('../src/runner.ts');
process.exitCode = await main(
  process.argv.slice(2),
  {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  },
  runCommand,
  process.env,
);
