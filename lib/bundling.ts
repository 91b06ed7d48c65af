/**
 * How every Lambda function's handler is bundled: the CDK stacks hand these settings to NodejsFunction
 * (lib/stacks/service-function.ts) and the local twin hands the same to esbuild (lib/twin/assembly/bundles.ts),
 * so the code the twin runs is the code a deploy ships. Plain data: the twin must not load aws-cdk-lib.
 */
export const BUNDLING = {
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  target: 'node22',
  format: 'cjs',
  /**
   * Left out of the bundles: only the local twin uses these. The AWS SDK is bundled, not taken from the
   * Lambda runtime, whose copy lags behind and need not carry every package used (s3-request-presigner);
   * a bundled SDK is the one the tests ran. It also starts faster (`npm run bench -- bundles`: init
   * median 130 ms bundled against 183 ms loading it from node_modules).
   */
  externalModules: ['@electric-sql/*', 'kysely-pglite-dialect', 'fauxqs'],
} as const;
