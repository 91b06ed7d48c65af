/**
 * The local twin for an end-to-end test file: started before its tests in a temporary folder (on
 * PGlite, or on a fresh database of the real PostgreSQL named by TEST_DATABASE_URL), stopped and
 * removed after. With schedules on, start-up waits for their first run, so the seeded evidence is
 * embedded before any test asks for an analysis. The stage is synthesized with the handlers' rate limiting
 * and the gateway's throttles off (CDK context E2E_CONTEXT) unless the test names its own; test/ratelimit and
 * test/twin/gateway-throttle.e2e.test.ts cover them.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Role } from '#core/db/schema';
import { functions } from '#manifest';
import { DEMO_ORGANIZATION_IDS, demoUser } from '#core/seed/demo';
import type { TwinPlan } from '../../lib/twin/assembly/plan';
import { edgeClientConfig } from '../../lib/twin/aws/edge-client';
import { TWIN_TOTP_SECRET } from '../../lib/twin/identity/provider';
import { totpCode } from '../../lib/twin/identity/totp';
import { startTwin, type Twin, type TwinOptions } from '../../lib/twin/twin';
import { createPostgresDatabase, realPostgresUrl } from './db';
import { E2E_CONTEXT } from './render';
import { demoTemplatePath, TEMPLATE_PATH } from './template-paths';

export interface Reply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON bodies
  body: any;
  headers: Headers;
}

export interface TwinTest {
  readonly twin: Twin;
  /** a dev token of the demo user with that role in that organization (Northwind by default) */
  token: (role: Role, organizationId?: string) => Promise<string>;
  call: (method: string, path: string, token?: string, body?: unknown) => Promise<Reply>;
  /** stops the twin and starts it again on the same folder and database (what persists must survive this) */
  restart: () => Promise<void>;
  /**
   * Configuration of an AWS SDK client that calls the twin's AWS services as an operator would (the
   * edge, with credentials that belong to no function, so no function policy applies).
   */
  awsConfig: (region?: string) => ReturnType<typeof edgeClientConfig>;
  /** the JSON log records a function has written so far (Powertools lines, EMF metrics), oldest first */
  logged: (functionId: string) => Record<string, unknown>[];
  /** polls GET /api/analysis/{id} (as the SPA does, only faster) until generation has settled */
  pollUntilGenerated: (analysisId: string, token: string) => Promise<Reply['body']>;
}

/** Generation statuses an analysis rests in, or where only its quality check is still to come. */
export const SETTLED_STATUSES = ['complete', 'checking', 'verified', 'quality_unavailable', 'failed'];

type Call = (method: string, path: string, token: string, body?: unknown) => Promise<Reply>;

/** How long a client keeps sending a request the documented 503 answered (a person would give up later, a script sooner). */
const PATIENCE_MS = 60_000;

/**
 * `call` as a client makes it under load: the documented 503 (`database_unavailable`: the database busy, as PGlite's
 * one session is under a flood; nothing was changed) is sent again after the Retry-After it names, for up to a
 * minute (under two suites at once on CI's 2 CPUs, one create of the upload flood met three 503s in a row).
 * `heard` hears every answer, and whether it is being sent again.
 */
export const retryingAfter503 =
  (call: Call, heard: (status: number, sentAgain: boolean) => void = () => undefined): Call =>
  async (method, path, token, body) => {
    const giveUpAt = Date.now() + PATIENCE_MS;
    for (;;) {
      const res = await call(method, path, token, body);
      const again = res.status === 503 && Date.now() < giveUpAt;
      heard(res.status, again);
      if (!again) return res;
      expect(res.body.error.code).toBe('database_unavailable');
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after')) * 1000));
    }
  };

/** Asks, at once, for `count` summaries of an investigation, each accepted (202): their analysis ids. */
export const requestSummaries = (call: Call, token: string, investigationId: string, count: number): Promise<string[]> =>
  Promise.all(
    Array.from({ length: count }, async () => {
      const res = await call('POST', '/api/analysis', token, { investigation_id: investigationId, analysis_type: 'summary' });
      expect(res.status).toBe(202);
      return res.body.analysis_id as string;
    }),
  );

/** Asks for an analysis of the investigation's first question with evidence linked to it (202): its id and the question. */
export const requestQuestionAnalysis = async (call: Call, token: string, investigationId: string) => {
  const question: { question_id: string; text: string } = (
    await call('GET', `/api/investigations/${investigationId}`, token)
  ).body.questions.find((q: { linked_evidence_count: number }) => q.linked_evidence_count > 0);
  const created = await call('POST', '/api/analysis', token, {
    investigation_id: investigationId,
    analysis_type: 'question',
    question_id: question.question_id,
  });
  expect(created.status).toBe(202);
  return { analysisId: created.body.analysis_id as string, question };
};

/**
 * Answers a sign-in's `totp` challenge (POST /api/auth/mfa/verify) with a code: by default the current code of the twin's
 * authenticator, the one every seeded administrator has.
 */
export const answerTotp = (call: TwinTest['call'], challenge: { username: string; session: string }, code = totpCode(TWIN_TOTP_SECRET)) =>
  call('POST', '/api/auth/mfa/verify', undefined, { username: challenge.username, session: challenge.session, challenge: 'totp', code });

/** A change to the deployment: the plan transformed, and which function's entry alone it changes, when it says. */
type PlanChange = NonNullable<TestTwinOptions['transformPlan']> & { changedFunction?: string };

/** A change to the deployment for a test: one function's plan entry (its environment, policy, timeout, permissions) changed. */
export const changing = (functionId: string, change: (fn: TwinPlan['functions'][number]) => TwinPlan['functions'][number]): PlanChange =>
  Object.assign(
    (plan: TwinPlan): TwinPlan => ({
      ...plan,
      functions: plan.functions.map((fn) => (fn.id === functionId ? change(fn) : fn)),
    }),
    { changedFunction: functionId },
  );

export type TestTwinOptions = Omit<TwinOptions, 'port' | 'twinDir' | 'databaseUrl'>;

/** CDK context that sets limits only: a twin deployed with it seeds and embeds at start-up as the demo template's twin did. */
const LIMITS_CONTEXT: readonly string[] = [
  'rateLimits',
  'gatewayThrottles',
  'generationCap',
  'analysisLeaseSeconds',
  'aiAttemptTimeoutMs',
  'retrievalMinSimilarity',
];

/**
 * Whether the twin's own start-up would leave what the demo template holds: it seeds, on the deployment the template was
 * made with or one whose change its start-up never meets. With schedules off too: a first start embeds the demo it
 * seeded whatever the schedules (demo.ts wakes the embedding worker and waits for it), and the template keeps no record
 * of the start-up runs (template.ts).
 */
const startsAsDemoTemplate = (options: TestTwinOptions): boolean =>
  options.seed !== false &&
  options.standinEmbedder !== 'meaning' && // the template's vectors are the hashing embedder's
  leavesStartUpAlone(options.transformPlan) &&
  Object.keys(options.context ?? {}).every((key) => LIMITS_CONTEXT.includes(key));

/**
 * Whether only routes invoke the function: a start-up runs none of those (it writes the demo as an operator; the files'
 * arrival, the embedding and the schedules' runs are other functions' work). The demo template's build checks it.
 */
export const onlyRoutesInvoke = (functionId: string | undefined): boolean => {
  const fn = functions.find((f) => f.id === functionId);
  return fn !== undefined && fn.triggers.length > 0 && fn.triggers.every((t) => t.kind === 'http');
};

/** No change to the deployment, or a change of one function only routes invoke. */
const leavesStartUpAlone = (transform: PlanChange | undefined): boolean => !transform || onlyRoutesInvoke(transform.changedFunction);

/**
 * What every test twin starts with, in this process or in a child (twin-process.ts): a free port, rate
 * limiting and gateway throttles off unless the test names its own (E2E_CONTEXT), and a template
 * global-setup built instead of initdb per twin (or the real PostgreSQL database it is given): the demo
 * template when the twin would seed and embed to the same state itself (its database and files bucket are copied
 * into a folder no twin has started on yet), else the migrated one (a dump the twin loads). The Bedrock stand-in embeds by hashing unless the test
 * names its embedder: these tests check the service's pipeline, and the model's inference (5-50 texts a second) runs
 * in the twin's main thread beside PGlite, where a seeding twin's embedding made requests meet 503 database_unavailable
 * on a loaded machine. Returns the twin's options.
 */
export const prepareTestTwin = (options: TestTwinOptions, twinDir: string, databaseUrl: string | undefined): TwinOptions => {
  const twinOptions: TwinOptions = {
    port: 0,
    twinDir,
    ...options,
    context: { ...E2E_CONTEXT, ...options.context },
  };
  if (databaseUrl) return { ...twinOptions, databaseUrl };
  if (options.databaseTemplate || !startsAsDemoTemplate(options))
    return { ...twinOptions, databaseTemplate: options.databaseTemplate ?? TEMPLATE_PATH };
  const demo = demoTemplatePath();
  // a folder with a database is a restart's, which keeps its own database and bucket
  if (!existsSync(join(twinDir, 'pgdata', 'PG_VERSION'))) {
    cpSync(demo.pgdata, join(twinDir, 'pgdata'), { recursive: true });
    cpSync(demo.aws, join(twinDir, 'aws'), { recursive: true });
  }
  return twinOptions;
};

/** A request to a twin's HTTP API, its JSON body parsed. */
export const callApi = async (baseUrl: string, method: string, path: string, token?: string, body?: unknown): Promise<Reply> => {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(token && { authorization: `Bearer ${token}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
};

/**
 * A temporary twin folder for a test file, with a fresh database of TEST_DATABASE_URL's server when it names
 * one; after the tests, `stopTwin` stops what uses them, then both are removed.
 */
export const useTwinFolder = (stopTwin: () => Promise<void>): { readonly dir: string; readonly databaseUrl: string | undefined } => {
  let dir: string | undefined;
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ias-e2e-'));
    if (realPostgresUrl()) ({ url: databaseUrl, drop: dropDatabase } = await createPostgresDatabase(false));
  });
  afterAll(async () => {
    await stopTwin();
    await dropDatabase?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      if (!dir) throw new Error('the twin folder is made in beforeAll');
      return dir;
    },
    get databaseUrl() {
      return databaseUrl;
    },
  };
};

export const useTwin = (options: TestTwinOptions = {}): TwinTest => {
  let twin: Twin | undefined;
  const folder = useTwinFolder(async () => {
    await twin?.stop();
  });

  const start = async () => {
    twin = await startTwin(prepareTestTwin(options, folder.dir, folder.databaseUrl));
    if (options.schedules !== false) await twin.schedulesSettled();
  };

  beforeAll(start, 90_000);

  const current = (): Twin => {
    if (!twin) throw new Error('the twin starts in beforeAll');
    return twin;
  };

  const call: TwinTest['call'] = (method, path, token, body) => callApi(current().url, method, path, token, body);

  return {
    get twin() {
      return current();
    },
    token: (role, organizationId = DEMO_ORGANIZATION_IDS.northwind) => {
      const user = demoUser(role, organizationId);
      return current().token({
        subject: user.idp_subject,
        email: user.email,
        role: user.role,
        organizationId: user.organization_id ?? undefined,
      });
    },
    call,
    logged: (functionId) =>
      current()
        .logs(functionId)
        .flatMap((line) => line.text.split('\n'))
        .flatMap((text) => {
          try {
            const record: unknown = JSON.parse(text);
            return record && typeof record === 'object' ? [record as Record<string, unknown>] : [];
          } catch {
            return [];
          }
        }),
    awsConfig: (region) =>
      edgeClientConfig(current().aws.edge, region ?? current().plan.region, { accessKeyId: 'AKIAOPERATOR', secretAccessKey: 'operator' }),
    restart: async () => {
      await current().stop();
      twin = undefined;
      await start();
    },
    pollUntilGenerated: async (analysisId, token) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const res = await call('GET', `/api/analysis/${analysisId}`, token);
        expect(res.status).toBe(200);
        if (!['queued', 'generating'].includes(res.body.generation_status)) return res.body;
        if (Date.now() > deadline) throw new Error(`analysis still ${res.body.generation_status}`);
        await new Promise((r) => setTimeout(r, 250)); // each look is a request the twin serves on the suite's two cores
      }
    },
  };
};
