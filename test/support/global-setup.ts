import { execFileSync } from 'node:child_process';

/** Once per test run: the PGlite template (see template.ts); real PostgreSQL needs none. */
export default function globalSetup(): void {
  if (process.env.TEST_DATABASE_URL) return;
  execFileSync('tsx', ['test/support/template.ts'], { stdio: 'inherit' });
}
