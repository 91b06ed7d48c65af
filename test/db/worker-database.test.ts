/**
 * The jest worker's lent database (test/support/worker-database.ts): what one file leaves, the next does not see.
 * This file drives its own copy of the module (the one its environment holds is another instance), so it opens
 * a database of its own from the migrated template and closes it after (on either pass: with TEST_DATABASE_URL the
 * other files use that server, but the lending is PGlite's).
 */
import pg from 'pg';
import { borrowWorkerDatabase, closeWorkerDatabase } from '../support/worker-database';

/** Runs `work` on the lent database with a client of its own, then ends the loan. */
const onLoan = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const loan = await borrowWorkerDatabase();
  if (!loan) throw new Error('the database is out on loan');
  const client = new pg.Client(loan.url);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
    loan.release();
  }
};

const count = async (client: pg.Client, query: string) => Number((await client.query<{ n: string }>(query)).rows[0]!.n);

describe('the worker database between test files', () => {
  afterAll(closeWorkerDatabase);

  test("a file's rows, settings and sequences are gone for the next; the template's rows are back", async () => {
    const template = await onLoan(async (client) => {
      const prompts = await count(client, 'select count(*) as n from prompt_templates');
      await client.query(`insert into organizations (name) values ('Left behind')`);
      await client.query('delete from prompt_templates');
      await client.query(`set work_mem = '77MB'`);
      await client.query('begin'); // left open: the reset rolls it back
      await client.query(`insert into organizations (name) values ('Never committed')`);
      return prompts;
    });
    expect(template).toBeGreaterThan(0);
    await onLoan(async (client) => {
      expect(await count(client, 'select count(*) as n from organizations')).toBe(0);
      expect(await count(client, 'select count(*) as n from prompt_templates')).toBe(template);
      expect((await client.query<{ work_mem: string }>('show work_mem')).rows[0]!.work_mem).not.toBe('77MB');
    });
  });

  test('one loan at a time: a second borrower is told to open its own', async () => {
    const first = await borrowWorkerDatabase();
    expect(first).toBeDefined();
    expect(await borrowWorkerDatabase()).toBeUndefined();
    first!.release();
    const again = await borrowWorkerDatabase();
    expect(again).toBeDefined();
    again!.release();
  });

  test('a file that changed the schema leaves a database opened afresh from the template', async () => {
    const firstPort = await onLoan(async (client) => {
      await client.query('create table left_behind (id int)');
      await client.query('drop index text_chunks_embedding_idx');
      return client.port;
    });
    await onLoan(async (client) => {
      expect(client.port).not.toBe(firstPort); // another server: another database
      expect(await count(client, `select count(*) as n from pg_class where relname = 'left_behind'`)).toBe(0);
      expect(await count(client, `select count(*) as n from pg_class where relname = 'text_chunks_embedding_idx'`)).toBe(1);
    });
  });
});
