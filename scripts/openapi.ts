/**
 * The OpenAPI document outside the service: `npm run openapi -- <command>`.
 *   json [file]  the document (stdout without a file)
 *   lint         Redocly's `recommended` rules over it; fails on any error or warning
 *   client       regenerates the typed client's types (web/api/schema.d.ts, openapi-typescript)
 *   check        lint, and fail when web/api/schema.d.ts is not what `client` would write (CI)
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Command } from 'commander';
import openapiTS, { astToString } from 'openapi-typescript';
import { openApiDocument } from '#core/http/openapi';
import { PROJECT_ROOT } from '../lib/paths';

const CLIENT_TYPES = join(PROJECT_ROOT, 'web', 'api', 'schema.d.ts');
const REDOCLY = join(PROJECT_ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

const documentText = () => `${JSON.stringify(openApiDocument(), null, 2)}\n`;

/** The client's types: every path and operation, and each named component as a root type (`Analysis`, …). */
const clientTypes = async () => {
  const ast = await openapiTS(JSON.parse(documentText()) as Parameters<typeof openapiTS>[0], {
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
  });
  return `/** Generated from the OpenAPI document by \`npm run openapi -- client\`: do not edit. */\n${astToString(ast)}`;
};

interface LintProblem {
  severity: 'error' | 'warn';
  ruleId: string;
  message: string;
}

/** Redocly `recommended` over the document: its problems (an empty list passes). */
const lint = async (): Promise<LintProblem[]> => {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, documentText());
    const run = await promisify(execFile)(process.execPath, [REDOCLY, 'lint', file, '--extends', 'recommended', '--format', 'json'], {
      maxBuffer: 64 << 20,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    return (JSON.parse(run.stdout) as { problems: LintProblem[] }).problems;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

const reportLint = async () => {
  const problems = await lint();
  const count = (severity: LintProblem['severity']) => problems.filter((p) => p.severity === severity).length;
  for (const p of problems) console.error(`${p.severity} ${p.ruleId}: ${p.message}`);
  console.log(`Redocly recommended: ${count('error')} errors, ${count('warn')} warnings`);
  return problems.length === 0;
};

const program = new Command('openapi').description('The OpenAPI document: print, lint, generate the typed client').showHelpAfterError();
program
  .command('json')
  .argument('[file]')
  .action(async (file?: string) => {
    if (file) await writeFile(file, documentText());
    else process.stdout.write(documentText());
  });
program.command('lint').action(async () => {
  if (!(await reportLint())) process.exitCode = 1;
});
program.command('client').action(async () => {
  await writeFile(CLIENT_TYPES, await clientTypes());
  console.log(`wrote ${CLIENT_TYPES}`);
});
program.command('check').action(async () => {
  const clean = await reportLint();
  const current = await readFile(CLIENT_TYPES, 'utf8').catch(() => '');
  const fresh = current === (await clientTypes());
  console.log(
    fresh ? 'web/api/schema.d.ts matches the document' : 'web/api/schema.d.ts is stale: run npm run openapi -- client, and commit it',
  );
  if (!clean || !fresh) process.exitCode = 1;
});
void program.parseAsync();
