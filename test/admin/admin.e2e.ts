/**
 * The admin surface end to end through the twin (JWT authorizer → route wrapper → handler → the
 * seeded database): prompt history, a new version, its diff and a rollback; deactivating a type
 * refuses POST /api/analysis of that type with a clear 409 until it is switched back on; settings
 * refused and audited with the admin's user id; audit health; users with organization and AI usage;
 * an investigator is turned away. Runs on PGlite, or real PostgreSQL with TEST_DATABASE_URL.
 */
import { FENCED_TEMPLATES } from '#core/db/migrations/0010-fenced-prompts';
import { DEMO_INVESTIGATION_IDS, DEMO_USERS, demoUser } from '#core/seed/demo';
import type { TwinTest } from '../support/twin';

export const adminRoutes = (e2e: TwinTest): void => {
  const { call } = e2e;
  let admin = '';
  let investigator = '';
  let adminUserId = '';

  const db = () => e2e.twin.database.db;
  const templates = () =>
    db()
      .selectFrom('prompt_templates')
      .select(['prompt_type', 'version', 'is_active', 'system_prompt'])
      .orderBy('prompt_type')
      .orderBy('version')
      .execute();

  beforeAll(async () => {
    [admin, investigator] = await Promise.all([e2e.token('admin'), e2e.token('investigator')]);
    adminUserId = (await db().selectFrom('users').select('id').where('email', '=', demoUser('admin').email).executeTakeFirstOrThrow()).id;
  });

  test('prompt history: list, a new version, its diff, a rollback visible in the list; every write audited with the admin', async () => {
    const TYPE = 'analysis_question';
    const first = await call('GET', `/api/admin/prompts/history?prompt_type=${TYPE}`, admin);
    expect(first.status).toBe(200);
    // the migrations' versions: 1 (0003) and the current 2 (0010, fenced prompts)
    expect(first.body).toMatchObject({ prompt_type: TYPE, is_active: true, current_version: 2, total_versions: 2 });
    expect(first.body.versions).toEqual([
      expect.objectContaining({ version: 2, is_current: true, created_by: null }),
      expect.objectContaining({ version: 1, is_current: false, created_by: null }),
    ]);

    const seeded = FENCED_TEMPLATES[TYPE]!;
    const created = await call('POST', '/api/admin/prompts', admin, {
      prompt_type: TYPE,
      system_prompt: `${seeded.system}\nQuote amounts exactly.`,
      user_prompt_template: seeded.user,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      version: 3,
      is_current: true,
      created_by: { user_id: adminUserId, email: demoUser('admin').email },
    });
    // Location names the created version, and reading it there gives it back
    expect(created.headers.get('location')).toBe(`/api/admin/prompts/history?prompt_type=${TYPE}&version=3`);
    expect((await call('GET', created.headers.get('location')!, admin)).body).toMatchObject({
      version: 3,
      system_prompt: created.body.system_prompt,
    });

    const old = await call('GET', `/api/admin/prompts/history?prompt_type=${TYPE}&version=2`, admin);
    expect(old.status).toBe(200);
    expect(old.body).toMatchObject({
      version: 2,
      is_current: false,
      current_version: 3,
      system_prompt: seeded.system,
      user_prompt_template: seeded.user,
    });
    expect(old.body.diff.system_prompt.filter((r: { kind: string }) => r.kind !== 'same')).toEqual([
      {
        kind: 'added',
        left_line_no: null,
        left: null,
        right_line_no: seeded.system.split('\n').length + 1,
        right: 'Quote amounts exactly.',
      },
    ]);
    expect(old.body.diff.counts.user_prompt_template).toMatchObject({ added: 0, removed: 0, changed: 0 });

    const rolled = await call('POST', '/api/admin/prompts/history', admin, { prompt_type: TYPE, version: 2 });
    expect(rolled.status).toBe(201);
    expect(rolled.body).toMatchObject({ version: 4, restored_from_version: 2, system_prompt: seeded.system });
    const list = await call('GET', `/api/admin/prompts/history?prompt_type=${TYPE}`, admin);
    expect(
      list.body.versions.map((v: { version: number; restored_from_version: number | null }) => [v.version, v.restored_from_version]),
    ).toEqual([
      [4, 2],
      [3, null],
      [2, null],
      [1, null],
    ]);

    const audits = await db()
      .selectFrom('audit_log')
      .select(['action', 'outcome', 'actor_user_id', 'target'])
      .where('action', 'like', 'admin.prompt.%')
      .orderBy('id')
      .execute();
    expect(audits).toEqual([
      { action: 'admin.prompt.create', outcome: 'success', actor_user_id: adminUserId, target: `prompt:${TYPE}` },
      { action: 'admin.prompt.rollback', outcome: 'success', actor_user_id: adminUserId, target: `prompt:${TYPE}` },
    ]);
  });

  test('bad prompt requests are clear 4xx and change nothing', async () => {
    const before = await templates();
    const cases: [string, string, unknown, number][] = [
      ['GET', '/api/admin/prompts/history?prompt_type=analysis_timeline', undefined, 400],
      ['GET', '/api/admin/prompts/history', undefined, 400],
      ['GET', '/api/admin/prompts/history?prompt_type=analysis_gap&version=two', undefined, 400],
      ['GET', '/api/admin/prompts/history?prompt_type=analysis_gap&version=9', undefined, 404],
      ['POST', '/api/admin/prompts/history', { prompt_type: 'analysis_gap', version: 9 }, 404],
      ['POST', '/api/admin/prompts/history', { prompt_type: 'analysis_gap' }, 400],
      ['POST', '/api/admin/prompts', { prompt_type: 'analysis_gap', system_prompt: 'x', user_prompt_template: 'no placeholders' }, 400],
      ['PATCH', '/api/admin/prompts/analysis_timeline', { is_active: false }, 404],
      ['PATCH', '/api/admin/prompts/analysis_gap', { is_active: 'no' }, 400],
    ];
    for (const [method, path, body, status] of cases) {
      const res = await call(method, path, admin, body);
      expect([method, path, res.status]).toEqual([method, path, status]);
      expect(res.body.error.message).toMatch(/\w/);
    }
    const missing = await call('POST', '/api/admin/prompts', admin, {
      prompt_type: 'analysis_gap',
      system_prompt: 'x',
      user_prompt_template: 'no placeholders',
    });
    expect(missing.body.error.details).toEqual([
      expect.objectContaining({ path: 'user_prompt_template', message: expect.stringContaining('{{evidence}}') }),
    ]);
    expect(await templates()).toEqual(before);
  });

  test('a deactivated type refuses POST /api/analysis with a clear 409 and writes nothing; reactivated, it is accepted', async () => {
    const request = { investigation_id: DEMO_INVESTIGATION_IDS.northwind, analysis_type: 'summary' };
    const off = await call('PATCH', '/api/admin/prompts/analysis_summary', admin, { is_active: false });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ prompt_type: 'analysis_summary', is_active: false, changed: true, current_version: 2 });

    const analyses = () => db().selectFrom('analyses').select('id').execute();
    const before = await analyses();
    const refused = await call('POST', '/api/analysis', investigator, request);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/analysis_summary is deactivated/);
    expect(await analyses()).toEqual(before);

    expect((await call('PATCH', '/api/admin/prompts/analysis_summary', admin, { is_active: true })).body).toMatchObject({
      is_active: true,
      changed: true,
    });
    const accepted = await call('POST', '/api/analysis', investigator, request);
    expect(accepted.status).toBe(202);
    await e2e.pollUntilGenerated(accepted.body.analysis_id, investigator); // let the worker settle before the twin stops
  });

  test('settings: an empty list; a change is refused naming its keys, and the attempt is audited with the admin', async () => {
    expect(await call('GET', '/api/admin/settings', admin)).toMatchObject({ status: 200, body: { settings: [] } });
    const refused = await call('PUT', '/api/admin/settings', admin, { settings: { ai_fallback_region: 'eu-central-1' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'settings_not_modifiable', details: { refused_keys: ['ai_fallback_region'] } });
    expect(refused.body.error.message).toContain('ai_fallback_region');
    const empty = await call('PUT', '/api/admin/settings', admin);
    expect(empty.status).toBe(400);
    const rows = await db()
      .selectFrom('audit_log')
      .select(['outcome', 'actor_user_id'])
      .where('action', '=', 'admin.settings.update')
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { outcome: 'failure', actor_user_id: adminUserId },
      { outcome: 'failure', actor_user_id: adminUserId },
    ]);
  });

  test('audit health: healthy, then degraded naming the failing action with its latest error', async () => {
    expect((await call('GET', '/api/admin/audit-health', admin)).body).toMatchObject({
      status: 'healthy',
      window_hours: 24,
      failing_actions: [],
    });
    const failure = await db()
      .insertInto('audit_failures')
      .values({ action: 'auth.login_failed', error_message: 'statement timeout' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await call('GET', '/api/admin/audit-health', admin);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('degraded');
    expect(res.body.failing_actions).toEqual([
      expect.objectContaining({ action: 'auth.login_failed', failures: 1, last_error_message: 'statement timeout' }),
    ]);
    // the failure recorded by hand is gone again: the suites after this one on the twin assert that sign-ins audit without one
    await db().deleteFrom('audit_failures').where('id', '=', failure.id).execute();
    expect((await call('GET', '/api/admin/audit-health', admin)).body.status).toBe('healthy');
  });

  test('users: every demo user, grouped by organization with the operators first, with AI usage from the ledger', async () => {
    const res = await call('GET', '/api/admin/users?limit=200', admin);
    expect(res.status).toBe(200);
    type Group = {
      organization_id: string | null;
      organization_name: string | null;
      users: { email: string; role: string; user_id: string; ai_usage: { calls: number } }[];
    };
    const groups = res.body.organizations as Group[];
    expect(groups.map((g) => g.organization_name)).toEqual([
      null,
      ...new Set(DEMO_USERS.flatMap((u) => (u.organization_name ? [u.organization_name] : [])).sort()),
    ]);
    const grouped = groups.flatMap((g) => g.users.map((u) => [u.email, g.organization_id] as const));
    expect(grouped.sort()).toEqual(DEMO_USERS.map((u) => [u.email, u.organization_id] as const).sort());
    const ines = groups.flatMap((g) => g.users).find((u) => u.email === demoUser('investigator').email)!;
    expect(ines).toMatchObject({ role: 'investigator' });
    const ledger = await db()
      .selectFrom('ai_calls')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', ines.user_id)
      .executeTakeFirstOrThrow();
    expect(Number(ledger.n)).toBeGreaterThan(0); // the summary generated above
    expect(ines.ai_usage.calls).toBe(Number(ledger.n));
  });

  test('an investigator is refused the admin routes (403) and changes nothing', async () => {
    const before = await templates();
    expect((await call('GET', '/api/admin/users', investigator)).status).toBe(403);
    expect((await call('PATCH', '/api/admin/prompts/analysis_gap', investigator, { is_active: false })).status).toBe(403);
    expect(await templates()).toEqual(before);
  });

  test('the OpenAPI document describes the admin routes as built, with their contracts', async () => {
    const doc = (await call('GET', '/api/openapi.json')).body;
    const history = doc.paths['/api/admin/prompts/history'].get;
    expect(history.parameters.map((p: { name: string }) => p.name)).toEqual(['prompt_type', 'version', 'limit', 'cursor']);
    expect(doc.paths['/api/admin/settings'].put.requestBody).toBeDefined();
    expect(doc.paths['/api/admin/users'].get.responses['200'].content).toBeDefined();
  });
};
