/**
 * How the operator tools find the running twin (lib/twin/running.ts): TWIN_DIR, else the default folder,
 * else the pointer `npm start` leaves there; a refusal naming the command that works when none is found.
 * Twins are stood in for by their endpoints.json: this process's id is a live twin, an ended child's a dead one.
 * Also what `npm start` reads of CRON_SECRET and WEBHOOK_SECRET (lib/twin/cli/start.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secretValuesFromEnv } from '../../lib/twin/cli/start';
import {
  ENDPOINTS_FILE,
  forTwin,
  locateTwin,
  pointToTwin,
  POINTER_FILE,
  runningTwinIfAny,
  twinCommands,
  useRunningTwinDatabase,
  type TwinEndpoints,
} from '../../lib/twin/running';

let root: string;
let defaultDir: string;
const DEAD_PID = spawnSync(process.execPath, ['-e', '']).pid!;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ias-running-'));
  defaultDir = join(root, '.twin');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A twin folder whose endpoints.json names this process (alive) or an ended one. */
const twinFolder = (name: string, pid = process.pid): string => {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const endpoints: TwinEndpoints = {
    url: `http://127.0.0.1/${name}`,
    identityProvider: 'http://127.0.0.1:1',
    bedrock: 'http://127.0.0.1:2',
    edgePort: 3,
    region: 'us-east-1',
    pid,
    database: `postgres://postgres@127.0.0.1:4/${name}`,
    functions: {},
  };
  writeFileSync(join(dir, ENDPOINTS_FILE), JSON.stringify(endpoints));
  return dir;
};

test('TWIN_DIR names the twin; without it, the default folder', () => {
  const other = twinFolder('other');
  twinFolder('.twin');
  expect(locateTwin({ twinDir: other, defaultDir }).twinDir).toBe(other);
  expect(locateTwin({ defaultDir }).endpoints.url).toMatch(/\.twin$/);
});

test('without TWIN_DIR and no twin on the default folder: the twin the pointer names, if it runs', () => {
  const other = twinFolder('other');
  expect(() => locateTwin({ defaultDir })).toThrow(/the local twin is not running .*start it with `npm start`, or set TWIN_DIR/);
  const removePointer = pointToTwin(other, defaultDir);
  expect(locateTwin({ defaultDir }).twinDir).toBe(other);
  // a pointer left by a twin that was killed names nothing
  twinFolder('other', DEAD_PID);
  expect(runningTwinIfAny({ defaultDir })).toBeUndefined();
  removePointer();
  expect(existsSync(join(defaultDir, POINTER_FILE))).toBe(false);
});

test('a TWIN_DIR with no twin, while the pointer names one elsewhere: refused, naming the folder and the command', () => {
  const other = twinFolder('other');
  pointToTwin(other, defaultDir);
  const wrong = join(root, 'typo');
  expect(() => locateTwin({ twinDir: wrong, defaultDir })).toThrow(
    `the local twin is not running on TWIN_DIR=${wrong}; the running twin is on ${other}: run the command with TWIN_DIR=${other} (or start one there: \`TWIN_DIR=${wrong} npm start\`)`,
  );
  // a killed twin's endpoints.json (its process has ended) is no running twin
  const killed = twinFolder('killed', DEAD_PID);
  expect(() => locateTwin({ twinDir: killed, defaultDir })).toThrow(/not running on TWIN_DIR=/);
});

test('a twin on the default folder leaves no pointer, and a pointer stays only while it is its own', () => {
  expect(pointToTwin(defaultDir, defaultDir)).toBeInstanceOf(Function);
  expect(existsSync(join(defaultDir, POINTER_FILE))).toBe(false);
  const first = pointToTwin(twinFolder('a'), defaultDir);
  writeFileSync(join(defaultDir, POINTER_FILE), JSON.stringify({ twinDir: join(root, 'b'), pid: DEAD_PID }));
  first();
  expect(JSON.parse(readFileSync(join(defaultDir, POINTER_FILE), 'utf8'))).toEqual({ twinDir: join(root, 'b'), pid: DEAD_PID });
});

test("the banner's commands carry TWIN_DIR (shell-quoted) unless the folder is the default", () => {
  const secrets = { cronSecret: 'cron-1', webhookSecret: "we'b" };
  expect(twinCommands({ twinDir: defaultDir, ...secrets }, defaultDir)).toEqual({
    token: 'npm run token -- --role investigator',
    seed: 'npm run seed -- --twin --file <seed file>',
    eval: 'npm run eval -- --offline --templates database',
    recipes: "export CRON_SECRET=cron-1 WEBHOOK_SECRET='we'\\''b'",
  });
  const spaced = join(root, 'my twin');
  expect(forTwin(spaced, 'npm run token', defaultDir)).toBe(`TWIN_DIR='${spaced}' npm run token`);
  expect(twinCommands({ twinDir: spaced, ...secrets }, defaultDir).recipes).toBe(
    `export TWIN_DIR='${spaced}' CRON_SECRET=cron-1 WEBHOOK_SECRET='we'\\''b'`,
  );
});

test("the eval's --templates database: the running twin's database unless one is configured", () => {
  const dir = twinFolder('other');
  const env: NodeJS.ProcessEnv = { TWIN_DIR: dir };
  useRunningTwinDatabase(env);
  expect(env.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:4/other');
  const configured: NodeJS.ProcessEnv = { TWIN_DIR: join(root, 'none'), DATA_DIR: '/somewhere/pgdata' };
  useRunningTwinDatabase(configured);
  expect(configured.DATABASE_URL).toBeUndefined();
  expect(() => useRunningTwinDatabase({ TWIN_DIR: join(root, 'none') })).toThrow(/not running on TWIN_DIR=/);
});

test('npm start puts CRON_SECRET and WEBHOOK_SECRET into the twin (empty is unset); a cron secret no bearer can carry is refused', () => {
  expect(secretValuesFromEnv({ CRON_SECRET: 'c-1', WEBHOOK_SECRET: 'whsec_1' })).toEqual({ cron: 'c-1', webhook: 'whsec_1' });
  expect(secretValuesFromEnv({ CRON_SECRET: '', PATH: '/bin' })).toEqual({});
  expect(() => secretValuesFromEnv({ CRON_SECRET: 'two words' })).toThrow('CRON_SECRET must not contain whitespace');
});
