/**
 * Deploy-time migrations: the data stack's trigger (lib/stacks/migrations.ts) invokes this once the
 * database and its proxy exist, and again whenever this bundle changes (a new migration ships in it).
 * migrateToLatest applies only what is missing (kysely's migration table and lock), so a re-run or a
 * second deploy is a no-op. A failure throws: the trigger, and with it the deployment, fails and
 * CloudFormation rolls the stack back before any function runs against a half-migrated schema.
 */
import { database, ping } from '#core/db/connection';
import { migrateToLatest } from '#core/db/migrate';
import { untilReachable } from '#core/db/reachable';
import { logger, withLambdaContext } from '#core/logger';

/** Up to 5 minutes for a new proxy's target to come up (the function may run 10). */
export const REACHABLE = { attempts: 21, delayMs: 15_000 };

export const handler = withLambdaContext(async (): Promise<{ applied: string[] }> => {
  const db = await database();
  await untilReachable(() => ping(db), REACHABLE);
  const { results = [] } = await migrateToLatest(db as never);
  const applied = results.map((r) => r.migrationName);
  logger.info(applied.length === 0 ? 'migrations: already at the latest schema' : `migrations: applied ${applied.join(', ')}`, { applied });
  return { applied };
});
