/**
 * What a run needs beyond the recordings: a database, and the AI gateway over it. Loaded only by live
 * runs, `record` and `--templates database`, so an offline run imports neither PGlite nor the AWS SDK.
 *
 * The gateway keeps its request quota and ledger in a database. By default that is a private
 * in-memory PGlite, migrated at start (the eval's calls are then not visible to the service's ledger
 * or shared quota). With `--templates database` it is the configured database, resolved exactly as
 * the service resolves it (DATABASE_URL; DB_HOST + DB_USER with IAM auth; else the PGlite folder DATA_DIR), so
 * the eval reads the active prompt versions there and shares the deployment's quota and ledger.
 * The Bedrock endpoint and credentials come from the environment as for the service: the twin's
 * stand-in when AWS_ENDPOINT_URL_BEDROCK_RUNTIME points at it, Bedrock otherwise.
 */
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { createAiGateway, gatewayConfigFromEnv, type AiGateway, type GatewayConfig } from '#core/ai/gateway';
import { bedrockClient } from '#core/aws/clients';
import { openDatabase, resolveTarget, type DatabaseHandle } from '#core/db/connection';
import { openPglite } from '#core/db/pglite';
import { migrateToLatest } from '#core/db/migrate';
import type { Database } from '#core/db/schema';

export type OpenDatabase = (configured: boolean) => Promise<DatabaseHandle>;

export const openEvalDatabase: OpenDatabase = async (configured) => {
  if (configured) return openDatabase(await resolveTarget());
  const db = new Kysely<Database>({ dialect: new PGliteDialect(await openPglite('memory://')) });
  await migrateToLatest(db as Kysely<unknown>);
  return { db, engine: 'pglite', close: () => db.destroy() };
};

export const evalGateway = (db: Kysely<Database>, config: GatewayConfig = gatewayConfigFromEnv()): AiGateway =>
  createAiGateway({ db, client: (region) => bedrockClient(region, { maxAttempts: 1 }), config });

export { gatewayConfigFromEnv };
