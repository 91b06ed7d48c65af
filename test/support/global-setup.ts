import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const tsx = (script: string) => new Promise<void>((resolve, reject) => {
  const child = spawn('tsx', [script], { stdio: 'inherit' });
  child.on('error', reject);
  child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${script} exited with ${code}`))));
});

/**
 * Once per test run, side by side: the PGlite template (template.ts; real PostgreSQL needs none) and the
 * twin's rendered deployment (render.ts).
 */
export default async function globalSetup(): Promise<void> {
  // this run's calls only (lib/twin/twin.ts IAM_CALLS_FILE; not imported: jest's globalSetup cannot load the twin's ESM dependencies)
  rmSync(join(__dirname, '../../node_modules/.cache/ias-twin/iam-calls.jsonl'), { force: true });
  await Promise.all([
    ...(process.env.TEST_DATABASE_URL ? [] : [tsx('test/support/template.ts')]),
    tsx('test/support/render.ts'),
  ]);
}
