/**
 * Builds the migrated PGlite template the tests load (initdb in WASM takes seconds; loading a dump a
 * fraction). Run by global-setup in a
 * tsx child process, because jest's globalSetup loads ESM-only kysely through plain require.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { openPglite } from '../../layers/core/db/connection';
import { migrateToLatest } from '../../layers/core/db/migrate';

// Keyed by the migrations' source, which both jest (swc) and tsx read the same.
const migrationsDir = join(__dirname, '../../layers/core/db/migrations');
const key = createHash('sha256')
  .update(readdirSync(migrationsDir).sort().map((f) => f + readFileSync(join(migrationsDir, f), 'utf8')).join('\n'))
  .digest('hex')
  .slice(0, 16);

export const TEMPLATE_PATH = join(tmpdir(), 'ias-test', `pglite-template-${key}.tar.gz`);

export const buildTemplate = async (): Promise<void> => {
  if (existsSync(TEMPLATE_PATH)) return;
  const pglite = await openPglite('memory://');
  const db = new Kysely<unknown>({ dialect: new PGliteDialect(pglite) });
  await migrateToLatest(db);
  const dump = await pglite.dumpDataDir('gzip');
  await mkdir(dirname(TEMPLATE_PATH), { recursive: true });
  const partial = `${TEMPLATE_PATH}.${process.pid}`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await rename(partial, TEMPLATE_PATH);
  await db.destroy();
};

if (require.main === module) void buildTemplate();
