/**
 * CommonJS jest over TypeScript via swc (type-checking is `npm run typecheck`).
 * kysely, @middy, fauxqs and jose ship ESM only, so swc transforms them too.
 */
const esmOnly = ['kysely', '@middy', 'fauxqs', 'kysely-pglite-dialect', 'jose'];

const { availableParallelism } = require('node:os');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.(t|j|mj)s$': ['@swc/jest', { jsc: { target: 'es2023', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  moduleNameMapper: {
    '^@middy/([^/]+)$': '<rootDir>/node_modules/@middy/$1/index.js',
    '^fauxqs$': '<rootDir>/node_modules/fauxqs/dist/app.js',
  },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  setupFiles: ['<rootDir>/test/support/env.ts'],
  testTimeout: 30000,
  // jest's default (cores - 1) is one worker on a 2-core machine; most suites wait on I/O (twin HTTP,
  // queues, the functions' worker threads), so more workers than cores keep both busy: on 2 cores,
  // 1 → 2 workers took the run from 4 min 57 s to 2 min 58 s, and with the twin's isolates 2 → 3 from
  // 3 min 25 s to 2 min 41 s
  maxWorkers: Math.max(3, availableParallelism() + 1),
};
