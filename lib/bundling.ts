/**
 * How every Lambda function's handler is bundled: the CDK stacks hand these settings to NodejsFunction
 * (lib/stacks/service-function.ts) and the local twin hands the same to esbuild (lib/twin/assembly/bundles.ts),
 * so the code the twin runs is the code a deploy ships. Plain data: the twin must not load aws-cdk-lib.
 */
import type { BuildOptions } from 'esbuild';
import { PROJECT_ROOT } from './paths';

export const BUNDLING = {
  minify: true,
  /**
   * A source map beside each bundle (index.js.map, in the deployed code package), not loaded at run time:
   * NODE_OPTIONS=--enable-source-maps would read it on every cold start (+10–40 ms of init, measured by
   * `npm run bench -- bundles`). A logged stack position (index.js:1:COLUMN) is mapped afterwards from the
   * function's own code (docs/runbook.md, "A stack trace from a function's logs").
   */
  sourceMap: true,
  sourcesContent: false,
  target: 'node24',
  format: 'cjs',
  /**
   * A package's ES module build before its CommonJS one (esbuild's default on the node platform is the
   * reverse): esbuild drops the unused exports of ES modules only, and the AWS SDK ships both builds.
   */
  mainFields: ['module', 'main'],
  /**
   * Packages replaced in every bundle: the SDK's default credential chain by the one link a function uses
   * (layers/core/aws/credentials.ts), and semver by the one comparison the X-Ray SDK makes with it
   * (layers/core/aws/semver.ts). Paths are relative to the project root.
   */
  alias: { '@aws-sdk/credential-provider-node': './layers/core/aws/credentials.ts', semver: './layers/core/aws/semver.ts' },
  /**
   * Left out of the bundles: only the local twin uses these. The AWS SDK is bundled, not taken from the
   * Lambda runtime, whose copy lags behind and need not carry every package used (s3-request-presigner);
   * a bundled SDK is the one the tests ran. It also starts faster (`npm run bench -- bundles`: init
   * median 130 ms bundled against 183 ms loading it from node_modules).
   */
  externalModules: ['@electric-sql/*', 'kysely-pglite-dialect', 'fauxqs'],
  /**
   * Code that knows it runs from a function's bundle: its manifest facts come from FUNCTION_FACTS, and the branch
   * that would read the manifest is dead code, so the manifest (every function's spec, about 18 kB) stays out of
   * the bundle (layers/core/function-facts.ts).
   */
  define: { FUNCTION_BUNDLE: 'true' },
} as const;

/** The same settings as esbuild's own options, for the twin's bundles and the bench (NodejsFunction takes them as props). */
export const esbuildOptions = (): BuildOptions => ({
  bundle: true,
  platform: 'node',
  target: BUNDLING.target,
  format: BUNDLING.format,
  minify: BUNDLING.minify,
  sourcemap: BUNDLING.sourceMap,
  sourcesContent: BUNDLING.sourcesContent,
  mainFields: [...BUNDLING.mainFields],
  alias: { ...BUNDLING.alias },
  // where the alias paths resolve (NodejsFunction runs esbuild in its projectRoot, the same folder)
  absWorkingDir: PROJECT_ROOT,
  external: [...BUNDLING.externalModules],
  define: { ...BUNDLING.define },
  logLevel: 'error',
});
