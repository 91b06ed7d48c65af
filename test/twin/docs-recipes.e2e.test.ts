/**
 * The docs' recipes, run as written against a running twin (docs/twin.md, "The docs' recipes"): every fenced
 * bash/sh block of README.md and docs/*.md, in a shell given the start banner's "Docs recipes" export line,
 * with the documented http://127.0.0.1:3000 read as this twin's address and every curl failing on an HTTP
 * error. The twin is started with CRON_SECRET's and WEBHOOK_SECRET's values (secretValues, as `npm start`
 * passes them), and the banner's commands are run too: they find this twin by its folder, and the tools
 * refuse a folder where no twin runs.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../lib/paths';
import { twinCommands } from '../../lib/twin/running';
import { runProcess, type Run } from '../support/run-process';
import { useTwin } from '../support/twin';

const CRON_SECRET = 'recipes-cron-secret';
const WEBHOOK_SECRET = 'whsec_recipes';
const e2e = useTwin({ secretValues: { cron: CRON_SECRET, webhook: WEBHOOK_SECRET } });

interface Block {
  file: string;
  line: number;
  language: string;
  markers: string[];
  text: string;
}

/** The fenced blocks of a markdown file: the info string's first word is the language, the others are markers. */
const fencedBlocks = (file: string): Block[] => {
  const blocks: Block[] = [];
  let open: Block | undefined;
  readFileSync(join(PROJECT_ROOT, file), 'utf8')
    .split('\n')
    .forEach((line, index) => {
      const fence = /^```(.*)$/.exec(line);
      if (!fence) {
        if (open) open.text += `${line}\n`;
        return;
      }
      if (open) {
        blocks.push(open);
        open = undefined;
        return;
      }
      const [language = '', ...markers] = fence[1]!.trim().split(/\s+/);
      open = { file, line: index + 1, language, markers, text: '' };
    });
  return blocks;
};

const DOCS = [
  'README.md',
  ...readdirSync(join(PROJECT_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const BLOCKS = DOCS.flatMap(fencedBlocks);
const SHELL = ['bash', 'sh', 'shell'];
const MARKERS = ['stopped', 'aws', 'setup'];
const recipes = BLOCKS.filter((b) => SHELL.includes(b.language));
const runnable = recipes.filter((b) => b.markers.length === 0);
const stopped = recipes.filter((b) => b.markers.includes('stopped'));

/** What each runnable recipe must print, found by a command it holds. */
const EXPECTED: { holds: string; prints: RegExp[] }[] = [
  {
    holds: 'curl http://127.0.0.1:3000/api/health',
    prints: [/"status":"ok","checks"/, /"investigation_id":"[0-9a-f-]{36}"/, /"openapi":"3\.1/, /"status":"signed_in","access_token"/],
  },
  { holds: '/api/auth/login -H', prints: [/"status":"signed_in"/] },
  { holds: '/api/admin/cron/retention', prints: [/"deleted_total":\d+/, /"complete":true/] },
  { holds: '/api/webhooks/payment', prints: [/"received":true,"event_id":"evt_1"/] },
  { holds: 'npm run eval -- --offline --templates database', prints: [/Prompt evaluation "local"/, /templates: database/, /"\$schema"/] },
  { holds: 'npm run seed -- --twin --file docs/seed-example.json', prints: [/Example Compliance/] },
  // a file brought in by its presigned upload (docs/ingestion.md): extracted, the item counted
  { holds: '$API/investigations/$INVESTIGATION/ingestion', prints: [/^extracted$/m, /"items_total":1,/] },
  // the file viewer's redirect, mapped to the twin's public S3 endpoint, followed to the file
  {
    holds: '"http://127.0.0.1:3000$VIEW"',
    prints: [/^HTTP\/1\.1 302/m, /^location: http:\/\/127\.0\.0\.1:\d+\/[a-z0-9.-]+\/org\/[^?]+\?X-Amz-/im, /^HTTP\/1\.1 200/m],
  },
];

const expectationOf = (recipe: Block) => EXPECTED.filter((e) => recipe.text.includes(e.holds));

/** A script in bash from the project folder, with the test's environment less what would name another twin or database. */
const shell = (script: string, env: Record<string, string> = {}): Promise<Run> =>
  runProcess('bash', ['-c', script], {
    cwd: PROJECT_ROOT,
    env,
    unset: ['TWIN_DIR', 'CRON_SECRET', 'WEBHOOK_SECRET', 'DATABASE_URL', 'DATA_DIR', 'DB_HOST', 'NODE_OPTIONS'],
  });

/** The recipe as written, in a shell set up as the banner says, against this twin. */
const runRecipe = (recipe: Block): Promise<Run> => {
  const { twin } = e2e;
  return shell(
    [
      'set -eo pipefail',
      'curl() { command curl --fail-with-body -sS "$@"; }',
      twinCommands(twin).recipes,
      recipe.text.replaceAll('http://127.0.0.1:3000', twin.url).replaceAll('localhost:3000', twin.url),
    ].join('\n'),
  );
};

test('every shell block is a recipe this test knows, and no other block hides a command', () => {
  expect(recipes.length).toBeGreaterThan(10);
  for (const recipe of recipes)
    expect({ at: `${recipe.file}:${recipe.line}`, markers: recipe.markers.filter((m) => !MARKERS.includes(m)) }).toEqual({
      at: `${recipe.file}:${recipe.line}`,
      markers: [],
    });
  for (const recipe of runnable)
    expect({ at: `${recipe.file}:${recipe.line}`, expectations: expectationOf(recipe).length }).toEqual({
      at: `${recipe.file}:${recipe.line}`,
      expectations: 1,
    });
  for (const { holds } of EXPECTED)
    expect({ holds, recipes: runnable.filter((r) => r.text.includes(holds)).length }).toEqual({ holds, recipes: 1 });
  const hidden = BLOCKS.filter((b) => !SHELL.includes(b.language) && /^\s*(curl|npm|npx) /m.test(b.text));
  expect(hidden.map((b) => `${b.file}:${b.line}`)).toEqual([]);
});

test("the seed format's example is docs/seed-example.json, which its recipes load", () => {
  const example = fencedBlocks('docs/seed-format.md').find((b) => b.language === 'json')!;
  expect(JSON.parse(example.text)).toEqual(JSON.parse(readFileSync(join(PROJECT_ROOT, 'docs/seed-example.json'), 'utf8')));
});

test.each(runnable.map((r) => [`${r.file}:${r.line}`, r] as const))(
  '%s runs as written',
  async (_, recipe) => {
    const run = await runRecipe(recipe);
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    for (const pattern of expectationOf(recipe)[0]!.prints) expect(run.stdout).toMatch(pattern);
  },
  60_000,
);

test.each(stopped.map((r) => [`${r.file}:${r.line}`, r] as const))(
  '%s (for a stopped twin) refuses while the twin runs, naming the --twin command',
  async (_, recipe) => {
    const run = await runRecipe(recipe);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      `the local twin is running on ${e2e.twin.twinDir}: load the file through it with \`TWIN_DIR=${e2e.twin.twinDir} npm run seed -- --twin --file <seed file>\``,
    );
  },
  60_000,
);

describe('CRON_SECRET', () => {
  const retention = (bearer: string) =>
    fetch(`${e2e.twin.url}/api/admin/cron/retention`, { method: 'POST', headers: { authorization: `Bearer ${bearer}` } });

  test('the cron routes take the value the twin was started with, read from its Secrets Manager, and refuse any other', async () => {
    expect(e2e.twin.cronSecret).toBe(CRON_SECRET);
    expect((await retention(CRON_SECRET)).status).toBe(200);
    expect((await retention(`${CRON_SECRET}x`)).status).toBe(401);
    const reads = e2e.twin.awsCalls().filter((c) => c.functionId === 'retention-sweep' && c.action === 'secretsmanager:GetSecretValue');
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((c) => c.allowed)).toBe(true);
  });
});

describe("the banner's commands", () => {
  test('find this twin by the folder they name', async () => {
    const commands = twinCommands(e2e.twin);
    expect(commands.token).toBe(`TWIN_DIR=${e2e.twin.twinDir} npm run token -- --role investigator`);
    const token = await shell(commands.token);
    expect(token.code).toBe(0);
    const investigations = await e2e.call('GET', '/api/investigations', token.stdout.trim().split('\n').at(-1));
    expect(investigations.status).toBe(200);
    const evaluation = await shell(commands.eval);
    expect({ code: evaluation.code, templates: /templates: database/.test(evaluation.stdout) }).toEqual({ code: 0, templates: true });
  }, 60_000);

  test('refuse a folder where no twin runs, and leave nothing in it', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'ias-no-twin-'));
    try {
      const commands = [
        'npm run token',
        'npm run eval -- --offline --templates database',
        'npm run seed -- --twin --file docs/seed-example.json',
        'npm run users -- list',
      ];
      const runs = await Promise.all(commands.map(async (command) => ({ command, run: await shell(command, { TWIN_DIR: empty }) })));
      for (const { command, run } of runs) {
        expect({
          command,
          code: run.code === 0 ? 0 : 'refused',
          says: run.stderr.includes(`the local twin is not running on TWIN_DIR=${empty}`),
        }).toEqual({ command, code: 'refused', says: true });
      }
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  }, 60_000);
});
