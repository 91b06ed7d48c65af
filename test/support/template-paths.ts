/**
 * Where the PGlite templates are (template.ts builds them): what the tests and twins that load one
 * import, apart from the builder, which starts a twin (twin.ts) for the demo template.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appSourceHash, hashFiles } from '../../lib/twin/assembly/assembly';

export const TEMPLATES_DIR = join(tmpdir(), 'ias-test');

// Keyed by the migrations' source, which both jest (swc) and tsx read the same.
const migrationsDir = join(__dirname, '../../layers/core/db/migrations');
const key = createHash('sha256')
  .update(
    readdirSync(migrationsDir)
      .sort()
      .map((f) => f + readFileSync(join(migrationsDir, f), 'utf8'))
      .join('\n'),
  )
  .digest('hex')
  .slice(0, 16);

export const TEMPLATE_PATH = join(TEMPLATES_DIR, `pglite-template-${key}.tar`);

/** An initdb'd cluster and nothing else, for the tests of a database never migrated: keyed by the engine that made it. */
const { version: pgliteVersion } = JSON.parse(
  readFileSync(join(__dirname, '../../node_modules/@electric-sql/pglite/package.json'), 'utf8'),
) as {
  version: string;
};
export const EMPTY_TEMPLATE_PATH = join(TEMPLATES_DIR, `pglite-empty-${pgliteVersion}.tar`);

/**
 * The demo template: a twin folder's database (`pgdata`, PGlite's data directory) and files bucket (`aws`, which fauxqs
 * keeps), copied into a new twin's folder before it starts: a copy costs about 0.3 CPU-seconds, loading a dump of it
 * into a data directory on disk 0.6 (and 1–3 s of the start's wall time).
 */
export interface DemoTemplate {
  pgdata: string;
  aws: string;
}

/** The demo templates' folder names begin with this (template.ts prunes the oldest). */
export const DEMO_TEMPLATE_PREFIX = 'demo-template-';

/**
 * Keyed by everything a twin's start-up is made of: the deployment and its handlers (migrations, seed
 * data, embedding code: appSourceHash), the twin itself (the Bedrock stand-in's embeddings among it), and
 * the test options it starts with. A function, not a constant: hashing the sources is for twins, not for
 * every unit test that loads the migrated template.
 */
export const demoTemplatePath = (): DemoTemplate => {
  const dir = join(
    TEMPLATES_DIR,
    `${DEMO_TEMPLATE_PREFIX}${appSourceHash()}-${hashFiles(['lib/twin', 'test/support/template.ts', 'test/support/template-paths.ts', 'test/support/render.ts', 'test/support/twin.ts'])}`,
  );
  return { pgdata: join(dir, 'pgdata'), aws: join(dir, 'aws') };
};
