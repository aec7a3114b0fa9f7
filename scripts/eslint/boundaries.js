// Flotilla's import boundaries as one ESLint rule (`flotilla/boundaries`), configured in
// eslint.config.js. It resolves each relative import to a path in the repository (a `.js`
// specifier names the `.ts` beside it; no resolver is needed for that), so the rules are
// about folders, not about how many `../` an import happens to have:
//
// - a package (packages/<name>, bench, e2e) reaches another only through its name
//   (`@flotilla/agent`), never through its files (`../../packages/agent/src/…`,
//   `@flotilla/agent/src/…`); the repository's tooling (root configs, scripts/) is no package;
// - packages/model imports no other workspace package;
// - a server feature (`packages/server/src/features/<name>/`) imports another feature only
//   through that feature's `index.ts` (its public entry), and the rest of the server
//   outside `features/` likewise; `infra/` imports no feature at all; features use the OData
//   engine through `infra/odata/index.ts`;
// - a web feature (`packages/web/src/features/<name>/`) imports no other feature, and the
//   web's shared `components/` and `lib/` import no feature.
// Tests (`*.spec.ts`, `*.test.ts`, `packages/*/test/`) may import their own package's
// internals; the package rules hold for them too.
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The workspace package (`packages/<name>`, `bench`, `e2e`) a path belongs to, if any. */
function packageOf(rel) {
  const parts = rel.split('/');
  if (parts[0] === 'packages' && parts.length > 2) return `packages/${parts[1]}`;
  if ((parts[0] === 'bench' || parts[0] === 'e2e') && parts.length > 1) return parts[0];
  return undefined; // the repository's own tooling: root configs, scripts/
}

/** Tests may reach their own package's internals (that is what they test). */
function isTest(rel) {
  return /\.(spec|test)\.tsx?$/.test(rel) || /^packages\/[^/]+\/test\//.test(rel);
}

/** Where a repository-relative path sits in the server's and the web's layout. */
function placeOf(rel) {
  let m = /^packages\/server\/src\/features\/([^/]+)\/(.+)$/.exec(rel);
  if (m) return { kind: 'server-feature', feature: m[1], file: m[2] };
  if (rel.startsWith('packages/server/src/infra/')) return { kind: 'server-infra' };
  if (rel.startsWith('packages/server/src/')) return { kind: 'server-other' };
  m = /^packages\/web\/src\/features\/([^/]+)\/(.+)$/.exec(rel);
  if (m) return { kind: 'web-feature', feature: m[1], file: m[2] };
  if (/^packages\/web\/src\/(components|lib)\//.test(rel)) return { kind: 'web-shared' };
  return { kind: 'other' };
}

/** A feature's public entry: `index.ts` (imported as `index.js`, `index` or the folder). */
function isEntry(file) {
  return /^index(\.[jt]sx?)?$/.test(file);
}

function check(fromRel, spec) {
  const fromPkg = packageOf(fromRel);
  // Another workspace package by name: only its entry, never its source files.
  const named = /^@flotilla\/([^/]+)(\/.*)?$/.exec(spec);
  if (named) {
    if (fromPkg === 'packages/model') return `packages/model imports no other package ('${spec}')`;
    if (named[2] && /^\/src(\/|$)/.test(named[2])) return `'${spec}' reaches into another package's src: import '@flotilla/${named[1]}'`;
    return undefined;
  }
  if (!spec.startsWith('.')) return undefined; // npm packages and node: built-ins
  const target = path.relative(ROOT, path.resolve(ROOT, path.dirname(fromRel), spec)).split(path.sep).join('/');
  const toPkg = packageOf(target);
  if (toPkg !== fromPkg && (toPkg !== undefined || fromPkg === 'packages/model')) {
    if (fromPkg === 'packages/model') return `packages/model imports nothing outside itself ('${spec}')`;
    return `'${spec}' reaches into ${toPkg}'s files: import the package by its name (@flotilla/…)`;
  }
  if (isTest(fromRel)) return undefined;
  const from = placeOf(fromRel);
  const to = placeOf(target);
  if (to.kind === 'server-feature') {
    if (from.kind === 'server-infra') return `infra imports no feature ('${spec}')`;
    const sameFeature = from.kind === 'server-feature' && from.feature === to.feature;
    if (!sameFeature && !isEntry(to.file)) {
      return `'${spec}' is internal to the ${to.feature} feature: import what it shares from '${to.feature}/index.js'`;
    }
  }
  // The OData engine's public entry is its index.ts (its compiler and SQL are internals).
  if (from.kind === 'server-feature' && /^packages\/server\/src\/infra\/odata\/(?!index\.[jt]s$)[^/]+$/.test(target)) {
    return `'${spec}' is internal to the OData engine: import it from 'infra/odata/index.js'`;
  }
  if (to.kind === 'web-feature') {
    if (from.kind === 'web-shared') return `shared components/ and lib/ import no feature ('${spec}')`;
    if (from.kind === 'web-feature' && from.feature !== to.feature) {
      return `web features do not import each other ('${spec}'): move what they share to components/ or lib/`;
    }
  }
  return undefined;
}

const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports stay inside the boundaries of packages, features and infra' },
    schema: [],
    messages: { boundary: '{{message}}' },
  },
  create(context) {
    const fromRel = path.relative(ROOT, context.filename).split(path.sep).join('/');
    if (fromRel.startsWith('..')) return {};
    function visit(node) {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const message = check(fromRel, source.value);
      if (message) context.report({ node: source, messageId: 'boundary', data: { message } });
    }
    return {
      ImportDeclaration: visit,
      ExportNamedDeclaration: visit,
      ExportAllDeclaration: visit,
      ImportExpression: visit,
    };
  },
};

export default { meta: { name: 'flotilla' }, rules: { boundaries } };
