#!/usr/bin/env node
// Runs the TypeScript CLI without a build step: tsx's loader is registered first, then
// src/cli.ts is imported as-is (as packages/agent/bin/flotilla-agent.mjs does).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(
  process.argv.slice(2),
  {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  },
  { env: process.env, cwd: process.cwd() },
);
