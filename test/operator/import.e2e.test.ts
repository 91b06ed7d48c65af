/**
 * Loading a seed file into the twin rendered from the synthesized stage, as into a deployed one:
 * `npm run seed -- --twin --file …` (the real CLI code) asks the import-investigations function for a
 * presigned upload under imports/, PUTs the file through the edge, and has the function load it in one
 * transaction with its own least-privilege grants. A bad file is refused before any upload; a second load
 * conflicts and writes nothing; the embedding sweeper then embeds what was loaded.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runImportCli } from '../../lib/operator/cli-import';
import { useTwin } from '../support/twin';

const e2e = useTwin();
const dir = mkdtempSync(join(tmpdir(), 'ias-import-'));

const seedFile = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
};

const cli = async (...argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runImportCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, { twinDir: e2e.twin.twinDir });
  return { code, out: out.join('\n'), err: err.join('\n') };
};

const FILE = {
  organizations: [
    {
      name: 'Cobalt Claims Unit',
      users: [],
      investigations: [
        {
          title: 'CCU-9: staged collision ring',
          questions: [{ key: 'q1', text: 'Do the three claims share a repair shop?' }],
          topics: [{ title: 'Repair shop' }],
          evidence: [
            {
              title: 'Claim 1',
              content: 'Claim C-101 lists Sunrise Body Works as the repair shop.',
              linked_questions: ['q1'],
              attachments: [{ file_name: 'c101.txt', content_type: 'text/plain', text: 'Estimate from Sunrise Body Works, USD 8,900.' }],
            },
            { title: 'Claim 2', content: 'Claim C-102 lists Sunrise Body Works as the repair shop.', linked_questions: ['q1'] },
          ],
        },
      ],
    },
  ],
};

test('a seed file loads through the loader function in one transaction; its files land under org/; embeddings follow', async () => {
  const { twin } = e2e;
  const loaded = await cli('--twin', '--file', seedFile('cobalt.json', FILE), '--json');
  expect(loaded).toMatchObject({ code: 0, err: '' });
  const summary = JSON.parse(loaded.out);
  expect(summary.rows).toMatchObject({ organizations: 1, investigations: 1, evidence_items: 2, attachments: 1 });
  expect(summary.storage_objects).toBe(1);
  const investigationId = summary.investigations[0].id as string;
  const attachment = await twin.database.db
    .selectFrom('attachments')
    .select('storage_key')
    .where('file_name', '=', 'c101.txt')
    .executeTakeFirstOrThrow();
  expect(attachment.storage_key).toMatch(/^org\//);

  // the function's calls were its own role's: the upload signed by it, the read, the file write
  const calls = twin.awsCalls().filter((c) => c.functionId === 'import-investigations');
  expect(calls.map((c) => [c.action, c.allowed])).toEqual(
    expect.arrayContaining([
      ['s3:GetObject', true],
      ['s3:PutObject', true],
    ]),
  );
  expect(calls.every((c) => c.allowed)).toBe(true);

  const pending = await twin.database.db
    .selectFrom('embedding_sources')
    .select('status')
    .where('investigation_id', '=', investigationId)
    .execute();
  expect(pending.map((p) => p.status)).toEqual(['pending', 'pending', 'pending']);
  expect((await e2e.call('POST', '/api/admin/cron/embedding-sweeper', twin.cronSecret)).status).toBe(200);
  const embedded = await twin.database.db
    .selectFrom('embedding_sources')
    .select('status')
    .where('investigation_id', '=', investigationId)
    .execute();
  expect(embedded.every((p) => p.status === 'embedded')).toBe(true);
}, 90_000);

test('loading the same file again conflicts and writes nothing', async () => {
  const count = async () =>
    Number(
      (
        await e2e.twin.database.db
          .selectFrom('investigations')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const before = await count();
  const again = await cli('--twin', '--file', seedFile('cobalt-again.json', FILE));
  expect(again.code).toBe(1);
  expect(again.err).toMatch(
    /refused: seed data conflicts with the database, nothing was loaded:[\s\S]*an organization named "Cobalt Claims Unit" already exists/,
  );
  expect(await count()).toBe(before);
});

test('an invalid file is refused before anything is uploaded; a forged key is refused by the function', async () => {
  const before = e2e.twin.awsCalls().filter((c) => c.functionId === 'import-investigations').length;
  const bad = await cli('--twin', '--file', seedFile('bad.json', { organizations: [{ name: '', users: [], investigations: [] }] }));
  expect(bad.code).toBe(1);
  expect(bad.err).toMatch(/is not a valid seed file:\norganizations\[0\]\.name: must not be empty/);
  expect(e2e.twin.awsCalls().filter((c) => c.functionId === 'import-investigations').length).toBe(before);

  const forged = await e2e.twin.invoke('import-investigations', { command: 'load', key: 'org/someone-else/secret.json' });
  expect(forged).toMatchObject({
    ok: true,
    value: { ok: false, error: expect.stringMatching(/key: must be the key an upload-url answer named/) },
  });
  expect(await cli('--file', 'x.json')).toMatchObject({ code: 1, err: expect.stringMatching(/exactly one of --stage <stage> or --twin/) });
});
