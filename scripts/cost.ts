/**
 * `npm run cost` — writes docs/cost.md: what each stage (dev, prod) runs and costs at rest and per analysis, from its
 * templates as `cdk synth` makes them (handler bundling skipped, which changes no template) and lib/cost/prices.ts.
 * `npm run cost -- --check` writes nothing and exits 1 when docs/cost.md is not what the templates and prices give.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { costDocument, type Templates } from '../lib/cost/estimate';
import { PRICES_AS_OF } from '../lib/cost/prices';
import { PROJECT_ROOT } from '../lib/paths';
import { buildApp } from '../lib/stacks';
import { synthApp } from '../lib/stacks/synth-app';
import { PROD_EXAMPLE_SETTINGS } from '../lib/stage-config';

const DOCUMENT = join(PROJECT_ROOT, 'docs', 'cost.md');

const PROD = { stage: 'prod', 'ias:prod': PROD_EXAMPLE_SETTINGS }; // none of them changes what is billed

const templatesOf = (context: Record<string, unknown>): Templates => {
  const outdir = mkdtempSync(join(tmpdir(), 'cost-cdk.out'));
  try {
    const app = synthApp({ outdir, context, cloudFormationValidation: false });
    buildApp(app, { nag: false });
    return Object.fromEntries(app.synth().stacks.map((stack) => [stack.stackName, stack.template as Record<string, unknown>]));
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
};

const document = costDocument({ dev: templatesOf({}), prod: templatesOf(PROD) }, PRICES_AS_OF);
if (process.argv.includes('--check')) {
  const current = readFileSync(DOCUMENT, 'utf8');
  if (current !== document) {
    console.error('docs/cost.md is not what the templates and lib/cost/prices.ts give: run `npm run cost`');
    process.exit(1);
  }
  console.log('docs/cost.md is current');
} else {
  writeFileSync(DOCUMENT, document);
  console.log(`wrote ${DOCUMENT}`);
}
