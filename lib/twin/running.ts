/**
 * Which local twin the operator tools (`npm run token`, `seed`, `eval -- --templates database`, `users`)
 * talk to. A running twin keeps its addresses in endpoints.json in its folder (twin.ts); `npm start` on a
 * folder other than the default also leaves a pointer to it in the default folder (.twin/running.json).
 * A tool takes the twin of TWIN_DIR, else the default folder's, else the pointer's. Finding none, or a
 * TWIN_DIR with no twin while the pointer names another, it refuses with the command that would work
 * rather than use a folder of its own: a second signing key (whose tokens the twin answers with 401), a
 * second database.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as z from 'zod';
import { ENV } from '#manifest/runtime-names';
import { reloadConfig } from '#core/config';
import { processAlive } from '#core/db/embedded-lock';
import { DEFAULT_TWIN_DIR } from '../paths';
import type { Stops } from './stops';

/** The running twin's addresses, in its folder while it runs. */
export const ENDPOINTS_FILE = 'endpoints.json';
/** In the default folder: the folder `npm start` runs a twin on when it is not the default. */
export const POINTER_FILE = 'running.json';

/** What operator tools read to reach a running twin. */
const twinEndpointsSchema = z.object({
  url: z.string(),
  identityProvider: z.string(),
  bedrock: z.string(),
  edgePort: z.number().int(),
  region: z.string(),
  pid: z.number().int(),
  /** the database as the twin's own connection reaches it: the embedded database's server on 127.0.0.1, or DATABASE_URL */
  database: z.string(),
  /** each function's deployed name, by manifest id */
  functions: z.record(z.string(), z.string()),
});
export type TwinEndpoints = z.infer<typeof twinEndpointsSchema>;

/**
 * Leaves the twin's endpoints in its folder for the operator tools, until `stop` (it names a database its reader
 * may sign in to, as secrets.json holds the secrets: the owner's only).
 */
export const announceEndpoints = (twinDir: string, endpoints: TwinEndpoints, stops: Stops): void => {
  writeFileSync(join(twinDir, ENDPOINTS_FILE), JSON.stringify(endpoints, null, 1), { mode: 0o600 });
  stops.add(() => rmSync(join(twinDir, ENDPOINTS_FILE), { force: true }));
};

const pointerSchema = z.object({ twinDir: z.string(), pid: z.number().int() });

export interface RunningTwin {
  twinDir: string;
  endpoints: TwinEndpoints;
}

/** No twin runs where the tool looked; the message says what to run instead. */
export class TwinNotFoundError extends Error {}

/** Where a tool looks: TWIN_DIR (unset: the default folder, then its pointer). */
export interface TwinLookup {
  twinDir?: string;
  defaultDir?: string;
}

const readJson = (file: string): unknown => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};

const shellWord = (text: string): string => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`);

/** A command for the twin on this folder, as typed in a shell: `TWIN_DIR=… ` in front unless it is the default folder. */
export const forTwin = (twinDir: string, command: string, defaultDir = DEFAULT_TWIN_DIR): string =>
  resolve(twinDir) === resolve(defaultDir) ? command : `TWIN_DIR=${shellWord(resolve(twinDir))} ${command}`;

/** The twin running on this folder, if its process lives (a killed twin leaves its endpoints.json behind). */
const runningOn = (twinDir: string): RunningTwin | undefined => {
  const file = join(twinDir, ENDPOINTS_FILE);
  if (!existsSync(file)) return undefined;
  const parsed = twinEndpointsSchema.safeParse(readJson(file));
  if (!parsed.success) throw new TwinNotFoundError(`${file} is not what this version of the twin writes: restart the twin (npm start)`);
  return processAlive(parsed.data.pid) ? { twinDir, endpoints: parsed.data } : undefined;
};

const pointedTwin = (defaultDir: string): RunningTwin | undefined => {
  const pointer = pointerSchema.safeParse(readJson(join(defaultDir, POINTER_FILE)));
  if (!pointer.success) return undefined;
  const twin = runningOn(pointer.data.twinDir);
  return twin?.endpoints.pid === pointer.data.pid ? twin : undefined;
};

/** The running twin the tools talk to; TwinNotFoundError when there is none to take. */
export const locateTwin = ({ twinDir = process.env.TWIN_DIR, defaultDir = DEFAULT_TWIN_DIR }: TwinLookup = {}): RunningTwin => {
  const pointed = pointedTwin(defaultDir);
  if (twinDir) {
    const dir = resolve(twinDir);
    const twin = runningOn(dir);
    if (twin) return twin;
    const elsewhere = pointed
      ? `; the running twin is on ${pointed.twinDir}: run the command with TWIN_DIR=${shellWord(pointed.twinDir)}`
      : '';
    throw new TwinNotFoundError(
      `the local twin is not running on TWIN_DIR=${dir}${elsewhere} (or start one there: \`${forTwin(dir, 'npm start', defaultDir)}\`)`,
    );
  }
  const twin = runningOn(defaultDir) ?? pointed;
  if (twin) return twin;
  throw new TwinNotFoundError(
    `the local twin is not running (none on ${defaultDir}, and no pointer there to another folder): start it with \`npm start\`, or set TWIN_DIR to the folder of the twin you started`,
  );
};

/** The twin the tools would talk to, or undefined when none runs (for a tool that may then work on the stopped folder). */
export const runningTwinIfAny = (lookup?: TwinLookup): RunningTwin | undefined => {
  try {
    return locateTwin(lookup);
  } catch (error) {
    if (error instanceof TwinNotFoundError) return undefined;
    throw error;
  }
};

/**
 * `--templates database` of the eval with no database configured (DATABASE_URL, DB_HOST, DATA_DIR): the
 * running twin's. Its embedded database is open in the twin's process, so it is reached through the twin's
 * database server, never opened from the folder a second time.
 */
export const useRunningTwinDatabase = (env: NodeJS.ProcessEnv = process.env): void => {
  if (env[ENV.databaseUrl] || env[ENV.dbHost] || env[ENV.dataDir]) return;
  env[ENV.databaseUrl] = locateTwin({ twinDir: env.TWIN_DIR }).endpoints.database;
  if (env === process.env) reloadConfig(); // the runtime parsed this process's environment once
};

/** `npm start` on a folder other than the default: the pointer to it; the returned function removes it (if still this process's). */
export const pointToTwin = (twinDir: string, defaultDir = DEFAULT_TWIN_DIR): (() => void) => {
  if (resolve(twinDir) === resolve(defaultDir)) return () => undefined;
  const file = join(defaultDir, POINTER_FILE);
  mkdirSync(defaultDir, { recursive: true });
  writeFileSync(file, JSON.stringify({ twinDir: resolve(twinDir), pid: process.pid }));
  return () => {
    if (pointerSchema.safeParse(readJson(file)).data?.pid === process.pid) rmSync(file, { force: true });
  };
};

/** The exact commands that reach the twin on this folder, for the start banner. */
export const twinCommands = (twin: { twinDir: string; cronSecret: string; webhookSecret: string }, defaultDir = DEFAULT_TWIN_DIR) => {
  const at = (command: string) => forTwin(twin.twinDir, command, defaultDir);
  const folder = resolve(twin.twinDir) === resolve(defaultDir) ? [] : [`TWIN_DIR=${shellWord(resolve(twin.twinDir))}`];
  return {
    token: at('npm run token -- --role investigator'),
    seed: at('npm run seed -- --twin --file <seed file>'),
    eval: at('npm run eval -- --offline --templates database'),
    /** what the docs' recipes read from the shell they run in */
    recipes: `export ${[...folder, `CRON_SECRET=${shellWord(twin.cronSecret)}`, `WEBHOOK_SECRET=${shellWord(twin.webhookSecret)}`].join(' ')}`,
  };
};
