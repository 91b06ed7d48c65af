/**
 * `npm run db:migrate` — migrates the configured database (DATABASE_URL, the deployed secret, or the
 * embedded PGlite folder DATA_DIR) to the latest schema and prints what it applied.
 */
import { runningTwin } from './embedded-lock';
import { openDatabase, resolveTarget } from './connection';
import { migrateToLatest } from './migrate';

const main = async (): Promise<number> => {
  const target = await resolveTarget();
  if (target.engine === 'pglite') {
    const twin = runningTwin(target.dataDir);
    if (twin) {
      console.error(`A twin (pid ${twin.pid}) holds ${target.dataDir}; it migrates on start. Stop it first, or set DATABASE_URL.`);
      return 1;
    }
  }
  const { db, close } = await openDatabase(target);
  try {
    const { results = [] } = await migrateToLatest(db as never);
    console.log(results.length === 0 ? 'Already at the latest schema.' : results.map((r) => `${r.status}: ${r.migrationName}`).join('\n'));
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  } finally {
    await close();
  }
};

void main().then((code) => {
  process.exitCode = code;
});
