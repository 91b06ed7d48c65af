/**
 * What lib/bundling.ts promises of a function's bundle (issue 16, item 6): the SDK's credential chain is its
 * environment link only, and the SDK comes in its ES module builds, whose unused exports are dropped; of the
 * core's module-level values (layers/core/if-used.ts), only those the function reaches are built. Built
 * with the options the twin and the bench use; NodejsFunction gets the same settings (lib/stacks/service-function.ts).
 */
import { build, type Metafile } from 'esbuild';
import { esbuildOptions } from '../../lib/bundling';
import { gte } from '#core/aws/semver';

let inputs: string[];
/** every module the bundle was built from, a re-export esbuild inlines whole (0 bytes of its own) included */
let read: string[];
beforeAll(async () => {
  // the file viewer: the S3 client and its presigner, and the database connection
  const { metafile } = await build({
    ...esbuildOptions(),
    entryPoints: ['functions/http/storage-view.ts'],
    outdir: 'unused',
    write: false,
    metafile: true,
  });
  // what the bundle holds (esbuild also reads modules whose code it then drops)
  const [bundle] = Object.entries((metafile as Metafile).outputs).filter(([path]) => path.endsWith('.js'));
  read = Object.keys(bundle![1].inputs);
  inputs = Object.entries(bundle![1].inputs)
    .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
    .map(([path]) => path);
});

test("every SDK client's default credential chain is the environment link", () => {
  expect(read).toContain('layers/core/aws/credentials.ts');
  expect(
    inputs.filter((path) => /@aws-sdk\/(credential-provider-(?!env\/)|nested-clients\/)|@smithy\/credential-provider-imds/.test(path)),
  ).toEqual([]);
});

test("the manifest stays out: a function's bundle reads its own facts from FUNCTION_FACTS", () => {
  expect(inputs).toContain('layers/core/function-facts.ts');
  expect(inputs.filter((path) => path.startsWith('manifest/'))).toEqual(['manifest/runtime-names.ts']);
});

test("a function's bundle holds its own route's contract, not the other routes of its feature's contract module", async () => {
  const { outputFiles } = await build({
    ...esbuildOptions(),
    entryPoints: ['functions/http/analysis-list.ts'],
    outdir: 'unused',
    write: false,
  });
  const bundle = outputFiles!.find((file) => file.path.endsWith('.js'))!.text;
  // every contract names its route key (minified: route:"GET /api/…"); the analysis and feedback modules declare 14
  expect([...bundle.matchAll(/route:"([A-Z]+ \/[^"]*)"/g)].map(([, key]) => key)).toEqual(['GET /api/analysis']);
});

test('the AWS SDK comes in its ES module builds', () => {
  const sdk = inputs.filter((path) => /@aws-sdk\/client-s3\//.test(path));
  expect(sdk.length).toBeGreaterThan(0);
  expect(sdk.filter((path) => path.includes('/dist-cjs/'))).toEqual([]);
});

test('semver is the stand-in, whose one comparison orders versions as semver does', () => {
  expect(inputs).toContain('layers/core/aws/semver.ts');
  expect(inputs.filter((path) => /node_modules\/semver\//.test(path))).toEqual([]);
  expect([
    gte('3.1169.0', '2.7.0'),
    gte('2.7.0', '2.7.0'),
    gte('2.6.9', '2.7.0'),
    gte('v10.0.0', '9.99.99'),
    gte('2.10.0', '2.9.0'),
  ]).toEqual([true, true, false, true, true]);
});
