/**
 * The local twin for an end-to-end test file: started before its tests in a temporary folder (on
 * PGlite, or on a fresh database of the real PostgreSQL named by TEST_DATABASE_URL), stopped and
 * removed after. With schedules on, start-up waits for their first run, so the seeded evidence is
 * embedded before any test asks for an analysis. The stage is synthesized with rate limiting off
 * (CDK context `rateLimits`) unless the test names its own limits; test/ratelimit covers them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Role } from '../../layers/core/db/schema';
import { DEMO_ORGANIZATION_IDS, demoUser } from '../../layers/core/seed/demo';
import type { TwinPlan } from '../../lib/twin/assembly/plan';
import { edgeClientConfig } from '../../lib/twin/edge-client';
import { startTwin, type Twin, type TwinOptions } from '../../lib/twin/twin';
import { createPostgresDatabase, realPostgresUrl } from './db';
import { TEMPLATE_PATH } from './template';

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

/** A change to the deployment for a test: one function's plan entry (its environment, policy, timeout, permissions) changed. */
export const changing = (functionId: string, change: (fn: TwinPlan['functions'][number]) => TwinPlan['functions'][number]) => (plan: TwinPlan): TwinPlan => ({
  ...plan,
  functions: plan.functions.map((fn) => (fn.id === functionId ? change(fn) : fn)),
});

export const useTwin = (options: Omit<TwinOptions, 'port' | 'twinDir' | 'databaseUrl'> = {}): TwinTest => {
  let twin: Twin | undefined;
  let dir: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;

  const start = async () => {
    twin = await startTwin({
      port: 0, twinDir: dir, ...options, context: { rateLimits: 'off', ...options.context },
      // the migrated template the unit tests load (global-setup builds it), instead of initdb per twin
      ...(databaseUrl ? { databaseUrl } : { databaseTemplate: TEMPLATE_PATH }),
    });
    if (options.schedules !== false) await twin.schedulesSettled();
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ias-e2e-'));
    if (realPostgresUrl()) ({ url: databaseUrl, drop: dropDatabase } = await createPostgresDatabase(false));
    await start();
  }, 90_000);

  afterAll(async () => {
    await twin?.stop();
    await dropDatabase?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const current = (): Twin => {
    if (!twin) throw new Error('the twin starts in beforeAll');
    return twin;
  };

  const call: TwinTest['call'] = async (method, path, token, body) => {
    const res = await fetch(`${current().url}${path}`, {
      method,
      headers: { ...(token && { authorization: `Bearer ${token}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };

  return {
    get twin() { return current(); },
    token: (role, organizationId = DEMO_ORGANIZATION_IDS.northwind) => {
      const user = demoUser(role, organizationId);
      return current().token({ subject: user.idp_subject, email: user.email, role: user.role, organizationId: user.organization_id ?? undefined });
    },
    call,
    logged: (functionId) => current().logs(functionId).flatMap((line) => line.text.split('\n')).flatMap((text) => {
      try {
        const record: unknown = JSON.parse(text);
        return record && typeof record === 'object' ? [record as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    }),
    awsConfig: (region) => edgeClientConfig(current().aws.edge, region ?? current().plan.region, { accessKeyId: 'AKIAOPERATOR', secretAccessKey: 'operator' }),
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
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
};
