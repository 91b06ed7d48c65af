/**
 * `npm run cost` — writes docs/cost.md: what each stage (dev, prod) runs and costs at rest and per analysis, from its
 * templates as `cdk synth` makes them (handler bundling skipped, which changes no template) and lib/cost/prices.ts.
 * `npm run cost -- --check` writes nothing and exits 1 when docs/cost.md is not what the templates and prices give.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { costDocument, type Templates } from '../lib/cost/estimate';
import { PRICES_AS_OF } from '../lib/cost/prices';
import { PROJECT_ROOT } from '../lib/paths';
import { buildApp } from '../lib/stacks';
import { PROD_EXAMPLE_SETTINGS } from '../lib/stage-config';

const DOCUMENT = join(PROJECT_ROOT, 'docs', 'cost.md');

const PROD = { stage: 'prod', 'ias:prod': PROD_EXAMPLE_SETTINGS }; // none of them changes what is billed

const templatesOf = (context: Record<string, unknown>): Templates => {
  const cdkContext = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;
  const app = new App({ context: { ...cdkContext, ...context, 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  buildApp(app, { nag: false });
  return Object.fromEntries(app.synth().stacks.map((stack) => [stack.stackName, stack.template as Record<string, unknown>]));
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
