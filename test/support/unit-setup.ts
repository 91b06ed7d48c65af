import { spawn } from 'node:child_process';

/** Runs a TypeScript script in a tsx child process (jest's globalSetup cannot load kysely, which is ESM only). */
export const tsx = (script: string, ...args: string[]) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn('tsx', [script, ...args], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${script} exited with ${code}`))));
  });

/**
 * The unit project's global setup (jest.config.js): the migrated PGlite template (template.ts), once per
 * change of the migrations, on either engine (with TEST_DATABASE_URL the database tests use that server, but the
 * worker database's own test still opens PGlite). Nothing of the twin or the CDK.
 */
export default async function unitSetup(): Promise<void> {
  await tsx('test/support/template.ts');
}
