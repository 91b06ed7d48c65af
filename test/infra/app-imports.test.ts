/**
 * The CDK app loads no runtime module (issue 16, item 4): names come from manifest/runtime-names.ts, and the
 * only modules under layers/ it may load are the rules a stage's settings are checked with at synth,
 * which import no package, so a synth never loads kysely, the AWS SDK or Powertools.
 */
import { build, type Metafile } from 'esbuild';
import { PROJECT_ROOT } from '../../lib/paths';

/** the rules the synth checks context values with, shared with the runtime (one copy of each) */
const SHARED_RULES = [
  'layers/core/ai/models.ts', // model ids and the regions they can be called in
  'layers/core/ai/timeouts.ts', // aiAttemptTimeoutMs
  'layers/core/analysis/similarity-floor.ts', // retrievalMinSimilarity
  'layers/core/errors.ts', // limits.ts's 429
  'layers/core/ratelimit/limits.ts', // rateLimits, and the rate class of each route
];

/** what the CDK app itself needs */
const APP_PACKAGES = /^(aws-cdk-lib(\/.*)?|constructs|cdk-nag|zod|node:.*)$/;

let metafile: Metafile;
beforeAll(async () => {
  ({ metafile } = await build({
    entryPoints: ['bin/app.ts'],
    absWorkingDir: PROJECT_ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
  }));
});

const packagesOf = (inputs: string[]): string[] =>
  [...new Set(inputs.flatMap((input) => metafile.inputs[input]!.imports.filter((i) => i.external).map((i) => i.path)))].sort();

test('under layers/, bin/app.ts loads only the shared rules', () => {
  expect(
    Object.keys(metafile.inputs)
      .filter((input) => input.startsWith('layers/'))
      .sort(),
  ).toEqual(SHARED_RULES);
});

test('the shared rules and the names import no package', () => {
  expect(packagesOf([...SHARED_RULES, 'manifest/runtime-names.ts'])).toEqual([]);
});

test('bin/app.ts loads no runtime package (kysely, the AWS SDK, Powertools, …)', () => {
  expect(packagesOf(Object.keys(metafile.inputs)).filter((name) => !APP_PACKAGES.test(name))).toEqual([]);
});
