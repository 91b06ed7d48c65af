/**
 * Synthesizes the test stages of ./synth.ts (all, or the ones named) in this one process and writes each
 * stage's templates, or the message its synth failed with, to the cache folder. Each app is built as
 * bin/app.ts builds it, cdk-nag and CloudFormation validation on, handler bundling skipped (the
 * templates name the code asset either way). Run with tsx by global-setup and, for a stage it has not
 * written, by the suite that reads it.
 *
 *   tsx test/support/synth-stages.ts <dir> [stage name...]
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../../lib/stacks';
import { newApp } from './cdk-app';
import { COMPLETE_FILE, STACK_ROLES, STAGES, stageFile, SYNTHESIZER_PID_FILE, WEB_ROLES, type StageEntry, type StageName } from './synth';

const synthesizeStage = (name: StageName): StageEntry => {
  const app = newApp(STAGES[name]);
  try {
    const service = buildApp(app);
    const assembly = app.synth(); // runs cdk-nag and CloudFormation validation; throws on an error-level finding
    const report = join(assembly.directory, 'validation-report.json');
    const { pluginReports } = existsSync(report)
      ? (JSON.parse(readFileSync(report, 'utf8')) as { pluginReports: { violations?: unknown[] }[] })
      : { pluginReports: [] };
    const artifacts = [...STACK_ROLES, ...WEB_ROLES.filter((role) => service[role])].map(
      (role) => [role, assembly.getStackArtifact(service[role]!.artifactId)] as const,
    );
    return {
      prefix: service.config.prefix,
      templates: Object.fromEntries(artifacts.map(([role, artifact]) => [role, artifact.template as unknown])),
      stackNames: Object.fromEntries(artifacts.map(([role, artifact]) => [role, artifact.stackName])),
      dependencies: Object.fromEntries(artifacts.map(([, artifact]) => [artifact.stackName, artifact.dependencies.map((d) => d.id)])),
      validationViolations: pluginReports.flatMap((r) => r.violations ?? []),
    } as StageEntry;
  } catch (error) {
    return { error: (error as Error).message };
  } finally {
    rmSync(app.outdir, { recursive: true, force: true }); // what the suites read of it is in the entry
  }
};

const [dir, ...named] = process.argv.slice(2);
if (!dir) throw new Error('usage: synth-stages.ts <dir> [stage name...]');
mkdirSync(dir, { recursive: true });
for (const name of named.length > 0 ? (named as StageName[]) : (Object.keys(STAGES) as StageName[])) {
  if (!(name in STAGES)) throw new Error(`no stage ${name} in test/support/synth.ts`);
  const file = stageFile(dir, name);
  // written aside and renamed, so a reader never sees half an entry
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, JSON.stringify(synthesizeStage(name)));
  renameSync(partial, file);
}
if (named.length === 0) {
  // global-setup's run: every stage is in, and no reader need wait for this process any more
  writeFileSync(join(dir, COMPLETE_FILE), '');
  rmSync(join(dir, SYNTHESIZER_PID_FILE), { force: true });
}
