/**
 * The module graph's rules (issue 16, item 7), checked by `npm run deps` (scripts/deps.mjs) in CI.
 * Type-only imports count (tsPreCompilationDeps): a cycle through `import type` is still a cycle.
 * Any violation fails.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No file cycles, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'feature-to-http',
      comment:
        'The core (its features under layers/core/<feature>/ and its shared modules) does not import the HTTP ' +
        'adapter (layers/core/http/); the handlers (functions/), http/ itself and the tests may.',
      severity: 'error',
      from: { path: '^layers/core/', pathNot: '^layers/core/http/' },
      to: { path: '^layers/core/http/' },
    },
    {
      name: 'product-to-lib',
      comment:
        'What is deployed (layers/, functions/) imports nothing from lib/ (the stacks, the twin, the operator tools): ' +
        'the pure data it shares with them (the manifest, the runtime names) is in manifest/.',
      severity: 'error',
      from: { path: '^(layers|functions)/' },
      to: { path: '^lib/' },
    },
    {
      name: 'manifest-is-pure',
      comment:
        'manifest/ is pure data that layers, functions, stacks and the twin all import: it imports nothing but itself, ' +
        'so it is bundled into handlers without CDK or any runtime dependency.',
      severity: 'error',
      from: { path: '^manifest/' },
      to: { pathNot: '^manifest/' },
    },
    {
      name: 'product-to-functions',
      comment: 'The core does not import a handler: handlers are entry points (functions/ → layers/, never back).',
      severity: 'error',
      from: { path: '^layers/' },
      to: { path: '^functions/' },
    },
    {
      name: 'not-to-test',
      comment: 'Nothing outside test/ imports the tests or their support.',
      severity: 'error',
      from: { pathNot: '^test/' },
      to: { path: '^test/' },
    },
    {
      name: 'unit-test-to-e2e-support',
      comment:
        "A unit suite (jest.config.js's unit project, `npm run test:quick`) does not reach, even through other modules, " +
        "the support that needs the e2e project's global setup: a twin (test/support/twin.ts, twin-process.ts), the " +
        'rendered deployment (render.ts), the CDK stages (synth.ts) or an app of its own (cdk-app.ts). Such a suite is ' +
        'named *.e2e.test.ts (it starts a twin) or *.synth.test.ts (it reads a synth).',
      severity: 'error',
      from: { path: '^test/.+\\.test\\.ts$', pathNot: '\\.(e2e|synth)\\.test\\.ts$' },
      to: { path: '^test/support/(twin|twin-process|render|synth|cdk-app)\\.ts$', reachable: true },
    },
    {
      name: 'product-to-dev-dependency',
      comment:
        'What is deployed (layers/, functions/) imports only dependencies, not devDependencies ' +
        '(type-only imports are erased, so @types/aws-lambda is fine).',
      severity: 'error',
      from: { path: '^(layers|functions)/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-to-unresolvable',
      comment: "Every import resolves (to a file or an installed package; the canary's Synthetics is the runtime's).",
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '^Synthetics$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(cdk\\.out|\\.twin|coverage|reports|\\.bench)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // package.json "imports" (#core/*) and packages' "exports", as Node, tsx, esbuild and TypeScript resolve them
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    skipAnalysisNotInRules: true,
    cache: false,
  },
};
