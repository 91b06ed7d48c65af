/**
 * The migrated data directory a first twin start copies (lib/twin/database/pgdata-template.ts): what its cache key is
 * made of, and that a copy is a database with every migration applied, made only into a folder with no database.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { openPglite } from '#core/db/pglite';
import { migrations } from '#core/db/migrate';
import { newDatabaseFromTemplate, schemaInputs } from '../../lib/twin/database/pgdata-template';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ias-pgdata-template-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('the cache key covers the migrate module and every migration (and what they import)', async () => {
  const inputs = await schemaInputs();
  const migrationFiles = readdirSync('layers/core/db/migrations').map((name) => `layers/core/db/migrations/${name}`);
  expect(inputs).toEqual(expect.arrayContaining(['layers/core/db/migrate.ts', ...migrationFiles]));
});

test('a first start gets a copy with every migration applied; a folder that holds anything is left to PGlite', async () => {
  const dataDir = join(dir, 'pgdata');
  expect(await newDatabaseFromTemplate(dataDir)).toBe(true);
  const pglite = await openPglite(dataDir);
  const db = new Kysely<{ kysely_migration: { name: string } }>({ dialect: new PGliteDialect(pglite) });
  try {
    const applied = await db.selectFrom('kysely_migration').select('name').orderBy('name').execute();
    expect(applied.map((m) => m.name)).toEqual(Object.keys(migrations).sort());
  } finally {
    await db.destroy();
  }
  expect(readdirSync(dir)).toEqual(['pgdata']); // no partial copy left beside it

  const other = join(dir, 'other');
  mkdirSync(other);
  writeFileSync(join(other, 'something'), '');
  expect(await newDatabaseFromTemplate(other)).toBe(false);
  expect(readdirSync(other)).toEqual(['something']);
  // on a fresh checkout the template is made here: initdb and every migration in PGlite, about 10 s of CPU that a
  // loaded machine (the suite's other workers) stretches past jest's 30 s; no figure of the template's is asserted
}, 120_000);
