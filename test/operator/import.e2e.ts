/**
 * Loading a seed file into the twin rendered from the synthesized stage, as into a deployed one:
 * `npm run seed -- --twin --file …` (the real CLI code) asks the import-investigations function for a
 * presigned upload under seeds/, PUTs the file, and has the function load the organizations, people and
 * investigations in one transaction with its own least-privilege grants; each investigation's evidence goes in
 * as a bulk import (its file under imports/, whose arrival starts the import worker), and the CLI waits for it.
 * A bad file is refused before any upload; a second load conflicts and writes nothing; what was loaded is embedded.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runImportCli } from '../../lib/operator/cli-import';
import { useTemporaryFolder } from '../support/temporary-folder';
import type { TwinTest } from '../support/twin';
import { until } from '../support/until';

export const importingInvestigations = (e2e: TwinTest): void => {
  const folder = useTemporaryFolder('ias-import-');

  const seedFile = (name: string, content: unknown) => {
    const path = join(folder.dir, name);
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

  test('a seed file loads through the loader function, its evidence through an import the CLI waits for; its files land under org/; embeddings follow', async () => {
    const { twin } = e2e;
    const loaded = await cli('--twin', '--file', seedFile('cobalt.json', FILE), '--json');
    expect(loaded).toMatchObject({ code: 0, err: '' });
    const summary = JSON.parse(loaded.out);
    // the people and investigations here; the evidence through the investigation's import, waited for
    expect(summary.rows).toMatchObject({ organizations: 1, investigations: 1, questions: 1, topics: 1, evidence_items: 0 });
    const investigationId = summary.investigations[0].id as string;
    expect(summary.imports).toEqual([
      { import_id: expect.any(String), investigation_id: investigationId, title: 'CCU-9: staged collision ring' },
    ]);
    expect(summary.import_states).toEqual([
      expect.objectContaining({ status: 'complete', lines_total: 2, lines_done: 2, lines_failed: 0, error: null }),
    ]);
    const items = await twin.database.db
      .selectFrom('evidence_items')
      .select('title')
      .where('investigation_id', '=', investigationId)
      .execute();
    expect(items.map((i) => i.title).sort()).toEqual(['Claim 1', 'Claim 2']);
    const links = await twin.database.db
      .selectFrom('evidence_question_links as l')
      .innerJoin('questions as q', 'q.id', 'l.question_id')
      .select('q.text')
      .where('q.investigation_id', '=', investigationId)
      .execute();
    expect(links).toHaveLength(2); // linked by key to the question the load made, not a second copy of it
    const attachment = await twin.database.db
      .selectFrom('attachments')
      .select('storage_key')
      .where('file_name', '=', 'c101.txt')
      .executeTakeFirstOrThrow();
    expect(attachment.storage_key).toMatch(/^org\//);

    // each function's calls were its own role's: the loader read the seed and wrote the import; the import worker read
    // the import and wrote the attachment's file
    const callsOf = (functionId: string) =>
      twin
        .awsCalls()
        .filter((c) => c.functionId === functionId && c.service === 's3')
        .map((c) => [c.action, c.resource.replace(/^arn:aws:s3:::[^/]+\/([a-z]+)\/.*$/, '$1/…'), c.allowed]);
    expect(callsOf('import-investigations')).toEqual(
      expect.arrayContaining([
        ['s3:GetObject', 'seeds/…', true],
        ['s3:PutObject', 'imports/…', true],
      ]),
    );
    expect(callsOf('import-worker')).toEqual(
      expect.arrayContaining([
        ['s3:GetObject', 'imports/…', true],
        ['s3:PutObject', 'org/…', true],
      ]),
    );
    expect(twin.awsCalls().every((c) => c.allowed)).toBe(true);

    const sources = await twin.database.db
      .selectFrom('embedding_sources')
      .select('source_type')
      .where('investigation_id', '=', investigationId)
      .execute();
    expect(sources.map((p) => p.source_type).sort()).toEqual(['attachment', 'content', 'content']);
    // the import's end wakes the embedding work: no sweep, no call by hand
    await until(
      'the sources embedded',
      async () => {
        const embedded = await twin.database.db
          .selectFrom('embedding_sources')
          .select('status')
          .where('investigation_id', '=', investigationId)
          .execute();
        return embedded.every((p) => p.status === 'embedded') || undefined;
      },
      60_000,
    );
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
    expect(await cli('--file', 'x.json')).toMatchObject({
      code: 1,
      err: expect.stringMatching(/exactly one of --stage <stage> or --twin/),
    });
  });
};
