import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMPLETE_FILE, isSynthesizerRunning, stagesDirectory, synthesizerCommand, SYNTHESIZER_PID_FILE } from './synth';
import unitSetup, { tsx } from './unit-setup';

/**
 * The CDK suites' stages (synth.ts), synthesized in one process for the whole run instead of once per
 * suite. Not awaited: the suites that read them wait for it, the others run meanwhile.
 */
const startStageSynthesizer = (): void => {
  const dir = stagesDirectory();
  if (existsSync(join(dir, COMPLETE_FILE)) || isSynthesizerRunning(dir)) return; // done, or another run's is at it
  mkdirSync(dir, { recursive: true });
  const [command, args] = synthesizerCommand(dir);
  const log = openSync(join(dir, 'synthesizer.log'), 'w');
  const child = spawn(command, args, { cwd: join(__dirname, '../..'), detached: true, stdio: ['ignore', log, log] });
  // written here, not by the child, so a suite that starts before the child does sees it at work
  writeFileSync(join(dir, SYNTHESIZER_PID_FILE), String(child.pid));
  child.unref();
  closeSync(log);
};

/**
 * The e2e project's global setup (jest.config.js), once per test run, side by side: the migrated PGlite template (template.ts; real PostgreSQL needs none)
 * and the twin's rendered deployment (render.ts); then the demo template, whose twin needs both; then, in
 * the background, the CDK suites' stages (synth.ts).
 */
export default async function globalSetup(): Promise<void> {
  // this run's calls only (lib/twin/iam/decisions.ts IAM_CALLS_FILE; not imported: jest's globalSetup cannot load the twin's ESM dependencies)
  rmSync(join(__dirname, '../../node_modules/.cache/ias-twin/iam-calls.jsonl'), { force: true });
  const templates = !process.env.TEST_DATABASE_URL;
  await Promise.all([unitSetup(), tsx('test/support/render.ts')]);
  if (templates) await tsx('test/support/template.ts', 'demo');
  // after them: every suite waits for those, only the CDK suites for this one
  startStageSynthesizer();
}
