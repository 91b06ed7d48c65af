/**
 * The seed command as a user runs it: a child process (tsx), its exit code and its stderr.
 * Database: embedded PGlite in a temporary DATA_DIR, or a fresh database on TEST_DATABASE_URL's server.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '#core/db/connection';
import { processAlive, runningTwin, twinPidPath } from '#core/db/embedded-lock';
import { createPostgresDatabase, realPostgresUrl, testEngine } from '../support/db';
import { runProcess, type Run } from '../support/run-process';

const ROOT = join(__dirname, '../..');
const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs');

const runSeed = (args: string[], env: Record<string, string>): Promise<Run> =>
  runProcess(process.execPath, [TSX, 'layers/core/seed/cli-seed.ts', ...args], {
    cwd: ROOT,
    env,
    unset: ['DATABASE_URL', 'DB_HOST', 'DB_USER', 'DATA_DIR', 'FILES_BUCKET', 'NODE_OPTIONS'],
  });

const validFile = {
  organizations: [
    {
      id: '8a5d0c8e-0c61-4d1e-9a3e-6f1f5b2a9caa',
      name: 'CLI Org',
      users: [{ email: 'cli@cli.example', display_name: 'Cli User', role: 'investigator', idp_subject: 'cli-user' }],
      investigations: [
        {
          title: 'CLI inquiry',
          questions: [{ key: 'q1', text: 'What happened?' }],
          topics: [],
          evidence: [
            {
              title: 'E1',
              content: 'It happened.',
              linked_questions: ['q1'],
              attachments: [{ file_name: 'e1.txt', content_type: 'text/plain', text: 'details' }],
            },
          ],
        },
      ],
    },
  ],
};

describe(`seed CLI (${testEngine()})`, () => {
  let dir: string;
  let dataDir: string;
  let dbEnv: Record<string, string>;
  let dropPostgres: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'seed-cli-'));
    dataDir = join(dir, 'pgdata');
    if (realPostgresUrl()) {
      const pg = await createPostgresDatabase(false);
      dropPostgres = pg.drop;
      dbEnv = { DATABASE_URL: pg.url };
    } else {
      dbEnv = { DATA_DIR: dataDir };
    }
    await writeFile(join(dir, 'valid.json'), JSON.stringify(validFile));
    const bad = structuredClone(validFile) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    delete bad.organizations[0].investigations[0].evidence[0].title;
    bad.organizations[0].investigations[0].evidence[0].linked_questions = ['q1', 'q7'];
    bad.organizations[0].users[0].nickname = 'cli';
    await writeFile(join(dir, 'bad.json'), JSON.stringify(bad));
    await writeFile(join(dir, 'broken.json'), '{"organizations": [');
  });

  afterAll(async () => {
    await dropPostgres?.();
    await rm(dir, { recursive: true, force: true });
  });

  /** Row counts straight from the database the CLI wrote to. */
  const counts = async (): Promise<Record<string, number>> => {
    const { db, close } = await openDatabase(
      realPostgresUrl() ? { engine: 'postgres', config: { connectionString: dbEnv.DATABASE_URL, max: 1 } } : { engine: 'pglite', dataDir },
    );
    try {
      const { rows } = await sql<Record<string, number>>`select
        (select count(*)::int from organizations) as organizations, (select count(*)::int from users) as users,
        (select count(*)::int from evidence_items) as evidence_items, (select count(*)::int from attachments) as attachments,
        (select count(*)::int from embedding_sources) as embedding_sources`.execute(db);
      return rows[0]!;
    } finally {
      await close();
    }
  };

  test('an invalid file: exit 1, every bad field named on stderr, nothing opened or written', async () => {
    const run = await runSeed(['--file', join(dir, 'bad.json')], { DATA_DIR: dataDir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('seed file is invalid (3 problems)');
    expect(run.stderr).toContain('organizations[0].investigations[0].evidence[0].title: Required');
    expect(run.stderr).toContain('organizations[0].investigations[0].evidence[0].linked_questions[1]: no question with key "q7"');
    expect(run.stderr).toContain('organizations[0].users[0].nickname: unknown field');
    expect(run.stderr).toContain('nothing was loaded');
    expect(run.stdout).toBe('');
    expect(existsSync(dataDir)).toBe(false); // validated before the database was opened
  });

  test('a missing file and a file that is not JSON: exit 1 with a clear message', async () => {
    const [missing, broken, neither] = await Promise.all([
      runSeed(['--file', join(dir, 'nope.json')], { DATA_DIR: dataDir }),
      runSeed(['--file', join(dir, 'broken.json')], { DATA_DIR: dataDir }),
      runSeed([], { DATA_DIR: dataDir }),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`seed file not found: ${join(dir, 'nope.json')}`);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`seed file ${join(dir, 'broken.json')} is not valid JSON`);
    expect(neither.code).toBe(1);
    expect(neither.stderr).toContain('give exactly one of --file <path> or --demo');
  });

  test('refuses the embedded database while a twin holds it', async () => {
    const pidFile = twinPidPath(dataDir);
    expect(pidFile).toBe(join(dir, 'twin.pid'));
    await writeFile(pidFile, `${process.pid}\n`); // this jest worker stands in for a running twin
    try {
      const run = await runSeed(['--file', join(dir, 'valid.json')], { DATA_DIR: dataDir });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`the local twin is running (process ${process.pid}`);
      expect(run.stderr).toContain('stop the twin first, or set DATABASE_URL');
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      await rm(pidFile);
    }
  });

  test('loads a valid file and prints the summary; the same file again conflicts and changes nothing', async () => {
    const first = await runSeed(['--file', join(dir, 'valid.json')], dbEnv);
    expect(first.stderr).toContain('FILES_BUCKET is not set');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/organizations\s+1\n/);
    expect(first.stdout).toMatch(/embedding_sources\s+2\n/);
    expect(first.stdout).toContain('8a5d0c8e-0c61-4d1e-9a3e-6f1f5b2a9caa  CLI Org');
    const loaded = await counts();
    expect(loaded).toEqual({ organizations: 1, users: 1, evidence_items: 1, attachments: 1, embedding_sources: 2 });

    const second = await runSeed(['--file', join(dir, 'valid.json')], dbEnv);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('seed data conflicts with the database, nothing was loaded');
    expect(second.stderr).toContain('organizations[0].id: organization 8a5d0c8e-0c61-4d1e-9a3e-6f1f5b2a9caa already exists ("CLI Org")');
    expect(await counts()).toEqual(loaded);
  }, 120_000); // two runs of the CLI, each a tsx process: CI's loaded machine took over 60 s
});

describe('twin lock', () => {
  test('a live process in twin.pid holds the data folder; a stale, garbled or missing file does not', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'twin-lock-'));
    try {
      const dataDir = join(dir, 'pgdata');
      expect(runningTwin(dataDir)).toBeUndefined();
      const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
      try {
        await writeFile(join(dir, 'twin.pid'), String(child.pid));
        expect(runningTwin(dataDir)).toEqual({ pid: child.pid, pidFile: join(dir, 'twin.pid') });
      } finally {
        child.kill();
      }
      const ended = spawnSync(process.execPath, ['-e', '0']).pid;
      expect(processAlive(ended)).toBe(false);
      await writeFile(join(dir, 'twin.pid'), String(ended));
      expect(runningTwin(dataDir)).toBeUndefined();
      await writeFile(join(dir, 'twin.pid'), 'not a pid');
      expect(runningTwin(dataDir)).toBeUndefined();
      await writeFile(join(dir, 'twin.pid'), String(process.pid)); // the caller itself is the twin
      expect(runningTwin(dataDir)).toBeUndefined();
      expect(runningTwin('memory://')).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
