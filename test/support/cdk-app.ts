/**
 * A CDK app as bin/app.ts gets one: cdk.json's context plus a test's, with handler bundling skipped
 * (a template names the code asset either way).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App } from 'aws-cdk-lib';
import { synthApp } from '../../lib/stacks/synth-app';

export interface TestAppOptions {
  /**
   * CDK's built-in CloudFormation validation at synth (default true, as in `cdk synth`). Loading its schemas
   * costs a process ~7 s of CPU; a suite that synthesizes in its own process turns it off and asserts
   * instead that its stage passed it in synth-stages.ts, which validates every stage once per run.
   */
  cloudFormationValidation?: boolean;
}

/**
 * The apps' cloud assembly folders: CDK's own default is a new temporary folder an app never removes (a stage's
 * assembly is 25 MB; a run of the suite left about 40 of them). A test file's are removed once it is done; a
 * script removes its own (synth-stages.ts).
 */
const outdirs: string[] = [];
if (typeof afterAll === 'function') {
  afterAll(() => {
    for (const dir of outdirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
}

/** A folder for an app's cloud assembly, removed as the others are. */
export const appOutdir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'cdk.out'));
  outdirs.push(dir);
  return dir;
};

export const newApp = (context: Record<string, unknown> = {}, options: TestAppOptions = {}): App =>
  synthApp({ outdir: appOutdir(), context, cloudFormationValidation: options.cloudFormationValidation ?? true });
