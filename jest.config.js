/**
 * CommonJS jest over TypeScript via swc (type-checking is `npm run typecheck`), without node's
 * --experimental-vm-modules: with it, jest (on node 24.9 and later) loads a `"type": "module"` package as a vm
 * SourceTextModule, which node's module registry keeps, with the test file's module registry behind it (heap
 * snapshots). Over the unit project a worker's live heap (after a forced collection) grew from 40 to 300 MB with the
 * flag and from 23 to 166 MB without it (the whole suite's time is the same either way: 229 and 226 s with it, 222
 * and 232 s without, interleaved). So swc transforms to CommonJS what ships ESM only (kysely, @middy, fauxqs,
 * kysely-pglite-dialect, jose, unpdf's PDF.js) and PGlite's `.cjs`, whose dynamic imports of node's own modules would
 * otherwise need the flag.
 *
 * Two projects, each with the global setup it needs:
 * - unit: everything else, over the migrated PGlite template only (`npm run test:quick` runs this one);
 * - e2e: the suites that start the twin (`*.e2e.test.ts`) or read a CDK synth (`*.synth.test.ts`: the
 *   stages of test/support/synth.ts, the twin's rendered assembly, or an app of their own), which also
 *   need the rendered deployment, the demo template and the stage synthesizer (test/support/global-setup.ts).
 * `npm test` runs both. `npm run deps` keeps the split honest: a unit suite may not reach the twin's or the synth's test support.
 */
const transformedPackages = ['kysely', '@middy', 'fauxqs', 'kysely-pglite-dialect', 'jose', '@electric-sql', 'unpdf'];

const { accessSync, constants, statfsSync } = require('node:fs');
const { availableParallelism } = require('node:os');

/**
 * The run's temporary folders (each twin's database and buckets, the templates, jest's cache) on a memory filesystem
 * when the machine has a roomy one and TMPDIR names none: PGlite writes each page it changes through to its folder,
 * and a twin's first start writes out its whole database. Against this machine's disk, three twin suites took
 * 12 % less CPU and s3-public.e2e 11.5 → 8.2 s. The workers and the processes they start inherit it.
 */
const MEMORY_FS = '/dev/shm';
const roomy = (dir) => {
  try {
    accessSync(dir, constants.W_OK);
    const { bavail, bsize } = statfsSync(dir);
    return bavail * bsize >= 4 * 2 ** 30;
  } catch {
    return false;
  }
};
if (!process.env.TMPDIR && roomy(MEMORY_FS)) process.env.TMPDIR = MEMORY_FS;

const END_TO_END = '\\.(e2e|synth)\\.test\\.ts$';

/** @type {import('jest').Config} */
const shared = {
  testEnvironment: '<rootDir>/test/support/environment.ts',
  roots: ['<rootDir>/test'],
  transform: {
    '^.+\\.(t|j|mj|cj)s$': ['@swc/jest', { jsc: { target: 'es2023', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${transformedPackages.join('|')})/)`],
  moduleNameMapper: {
    '^@middy/([^/]+)$': '<rootDir>/node_modules/@middy/$1/index.js',
    '^fauxqs$': '<rootDir>/node_modules/fauxqs/dist/app.js',
    '^unpdf/pdfjs$': '<rootDir>/node_modules/unpdf/dist/pdfjs.mjs',
  },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  setupFiles: ['<rootDir>/test/support/env.ts'],
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30000,
};

/** @type {import('jest').Config[]} */
const projects = [
  {
    ...shared,
    displayName: 'unit',
    testMatch: ['**/*.test.ts'],
    testPathIgnorePatterns: ['/node_modules/', END_TO_END],
    globalSetup: '<rootDir>/test/support/unit-setup.ts',
  },
  {
    ...shared,
    displayName: 'e2e',
    testMatch: ['**/*.e2e.test.ts', '**/*.synth.test.ts'],
    globalSetup: '<rootDir>/test/support/global-setup.ts',
  },
];

/** @type {import('jest').Config} */
module.exports = {
  // TEST_PROJECTS=unit: that project alone, with its global setup only (`npm run test:quick`; jest's own
  // --selectProjects takes every argument after it for a project name, so `-- <path>` could not follow it)
  projects: projects.filter((p) => !process.env.TEST_PROJECTS || process.env.TEST_PROJECTS.split(',').includes(p.displayName)),
  testTimeout: 30000,
  // `npm run coverage` (the unit project with --coverage): V8's own counters rather than babel's
  // instrumentation, over the service's code (the handlers in the twin's isolates run esbuild bundles
  // outside jest, so the e2e project would add little of it). The threshold is the level reached, rounded down.
  coverageProvider: 'v8',
  collectCoverageFrom: ['layers/**/*.ts', 'functions/**/*.ts', 'lib/**/*.ts', 'bin/**/*.ts', '!**/*.d.ts'],
  coverageReporters: ['text-summary', 'html', 'json-summary'],
  // reached on 2026-11-30 by `npm run coverage`: statements and lines 87.39 %, branches 90.81 %, functions 85.69 %
  coverageThreshold: { global: { statements: 87, branches: 90, functions: 85, lines: 87 } },
  // jest's default (cores - 1) is one worker on a 2-core machine; most suites wait on I/O (twin HTTP,
  // queues, the functions' worker threads), so more workers than cores keep both busy: on 2 cores,
  // 1 → 2 workers took the run from 4 min 57 s to 2 min 58 s, and with the twin's isolates 2 → 3 from
  // 3 min 25 s to 2 min 41 s; with today's suite 3 → 4 from 283 s to 257 and 261 s (5: 252 and 283 s, 6: 282 s)
  maxWorkers: Math.max(4, availableParallelism() + 2),
  testSequencer: '<rootDir>/test/support/sequencer.js',
};
