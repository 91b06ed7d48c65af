/**
 * The local twin in a child process, for what a twin inside the test's own process cannot show: a `kill -9`
 * of the whole process, then a start again on the same folder (its embedded database, queues and files
 * persist there, as the AWS services behind them do). The child starts the twin with the options a test
 * twin has (prepareTestTwin: the rendered deployment and database template global-setup prepared), waits
 * for the schedules' start-up runs as useTwin does, and then prints one line saying where it answers.
 * Run as a script (by startTwinProcess, through tsx), this file is that child.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Role } from '#core/db/schema';
import { DEMO_ORGANIZATION_IDS, demoUser } from '#core/seed/demo';
import { TOKENS_PATH } from '../../lib/twin/identity/provider';
import { ENDPOINTS_FILE, type TwinEndpoints } from '../../lib/twin/running';
import { startTwin, type TwinOptions } from '../../lib/twin/twin';
import { callApi, prepareTestTwin, useTwinFolder, type Reply, type TestTwinOptions } from './twin';

const OPTIONS_ENV = 'TEST_TWIN_OPTIONS';
const STOP_GRACE_MS = 15_000;
const READY = 'twin-process ready';

interface ReadyLine {
  url: string;
  bedrock: string;
  identityProvider: string;
  /** the twin's own (operator) connection string to its database (running.ts's endpoints.json) */
  database: string;
}

export interface TwinProcess {
  url: string;
  /** the Bedrock stand-in's base URL (faults: PUT <bedrock>/_standin/faults/<region>) */
  bedrock: string;
  /** the database as an operator reaches it while this twin runs */
  database: string;
  call: (method: string, path: string, token?: string, body?: unknown) => Promise<Reply>;
  /** an access token of the demo user with that role in that organization (Northwind by default), from the twin's identity provider */
  token: (role: Role, organizationId?: string) => Promise<string>;
  /** SIGKILL to the child's whole process group; resolves once the child is gone */
  kill: () => Promise<void>;
  /** SIGTERM: the twin stops cleanly (or is killed after STOP_GRACE_MS); resolves once the child is gone */
  stop: () => Promise<void>;
}

const exited = (child: ChildProcess): Promise<void> =>
  new Promise((ok) => {
    if (child.exitCode !== null || child.signalCode !== null) ok();
    else child.once('exit', () => ok());
  });

const startChild = async (options: TwinOptions): Promise<TwinProcess> => {
  // tsx as an import hook of this very node, so the child is one process (its pid is the one the twin's folder records)
  const child = spawn(process.execPath, ['--import', 'tsx', __filename], {
    env: { ...process.env, [OPTIONS_ENV]: JSON.stringify(options) },
    stdio: ['ignore', 'pipe', 'pipe'],
    // its own process group, so a kill reaches whatever it started too
    detached: true,
  });
  const output: string[] = [];
  const keep = (line: string) => {
    output.push(line);
    if (output.length > 200) output.shift();
  };
  createInterface({ input: child.stderr! }).on('line', keep);
  const ready = await new Promise<ReadyLine>((ok, fail) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith(READY)) ok(JSON.parse(line.slice(READY.length)) as ReadyLine);
      else keep(line);
    });
    child.once('exit', (code, signal) =>
      fail(new Error(`the twin process ended (${signal ?? code}) before it was ready:\n${output.join('\n')}`)),
    );
  });
  const group = child.pid!;
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-group, 'SIGKILL');
    await exited(child);
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    // a twin that cannot stop cleanly must not outlive the test (it runs detached)
    const stopped = await Promise.race([exited(child).then(() => true), sleep(STOP_GRACE_MS, false, { ref: false })]);
    if (!stopped) await kill();
  };
  return {
    url: ready.url,
    bedrock: ready.bedrock,
    database: ready.database,
    call: (method, path, token, body) => callApi(ready.url, method, path, token, body),
    token: async (role, organizationId = DEMO_ORGANIZATION_IDS.northwind) => {
      const res = await fetch(`${ready.identityProvider}${TOKENS_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: demoUser(role, organizationId).email }),
      });
      const body = (await res.json()) as { accessToken?: string; message?: string };
      if (!body.accessToken) throw new Error(`no token from the twin's identity provider: ${res.status} ${body.message ?? ''}`);
      return body.accessToken;
    },
    kill,
    stop,
  };
};

/**
 * Twins in child processes for a test file, one at a time, all on one temporary folder (and database):
 * start() starts one (the previous one must have been killed or stopped); after the tests, a running one
 * is stopped and the folder removed.
 */
export const useTwinProcess = (options: TestTwinOptions = {}): { start: () => Promise<TwinProcess> } => {
  let running: TwinProcess | undefined;
  const folder = useTwinFolder(async () => {
    await running?.stop();
  });
  return {
    start: async () => {
      running = await startChild(prepareTestTwin(options, folder.dir, folder.databaseUrl));
      return running;
    },
  };
};

if (require.main === module) {
  const options = JSON.parse(process.env[OPTIONS_ENV] ?? '{}') as TwinOptions;
  startTwin({ ...options, log: (line) => console.log(line) }).then(
    async (twin) => {
      if (options.schedules !== false) await twin.schedulesSettled();
      process.once('SIGTERM', () => void twin.stop().finally(() => process.exit(0)));
      const { database } = JSON.parse(readFileSync(join(twin.twinDir, ENDPOINTS_FILE), 'utf8')) as TwinEndpoints;
      const ready: ReadyLine = { url: twin.url, bedrock: twin.bedrock.url, identityProvider: twin.identityProvider.url, database };
      console.log(`${READY}${JSON.stringify(ready)}`);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
