// Bundles the server into dist/main.mjs: plain JavaScript that starts faster and uses less
// memory than running the TypeScript through a loader. Third-party packages stay external
// (installed in node_modules); our workspace packages (TypeScript sources) are bundled in.
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('../src/main.ts', import.meta.url).pathname],
  outfile: new URL('../dist/main.mjs', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-dependencies',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@flotilla/') ? undefined : { path: args.path, external: true }));
      },
    },
  ],
});
