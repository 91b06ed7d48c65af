/**
 * Where the PGlite templates are (template.ts builds them): what the tests and twins that load one
 * import, apart from the builder, which starts a twin (twin.ts) for the demo template.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appSourceHash, hashFiles } from '../../lib/twin/assembly/assembly';

const TEMPLATES_DIR = join(tmpdir(), 'ias-test');

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

/** The demo template: its database dump and its files bucket (the twin folder's `aws`, which fauxqs keeps). */
export interface DemoTemplate {
  database: string;
  aws: string;
}

/**
 * Keyed by everything a twin's start-up is made of: the deployment and its handlers (migrations, seed
 * data, embedding code: appSourceHash), the twin itself (the Bedrock stand-in's embeddings among it), and
 * the test options it starts with. A function, not a constant: hashing the sources is for twins, not for
 * every unit test that loads the migrated template.
 */
export const demoTemplatePath = (): DemoTemplate => {
  const dir = join(
    TEMPLATES_DIR,
    `demo-template-${appSourceHash()}-${hashFiles(['lib/twin', 'test/support/template.ts', 'test/support/template-paths.ts', 'test/support/render.ts', 'test/support/twin.ts'])}`,
  );
  return { database: join(dir, 'database.tar'), aws: join(dir, 'aws') };
};
