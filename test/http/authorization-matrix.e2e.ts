/**
 * The authorization matrix: every HTTP route of the service manifest × {anonymous, investigator of
 * org A, investigator of org B, admin (an operator: no organization), an admin-group token that also carries
 * org A (refused service-wide), cron secret, wrong cron secret, expired token},
 * through the twin's HTTP API. Expectations follow from each route's access level and from who owns
 * the resource it names (org A's demo investigation, an analysis created here), never from a list of
 * statuses, so routes added to the manifest are covered as they come. A 400 (no sample body) still
 * shows the caller got in. Public routes
 * must answer every caller alike, whatever bearer it sends.
 * PGlite, or real PostgreSQL with TEST_DATABASE_URL.
 */
import { httpRoutes, type FunctionSpec, type HttpTrigger } from '#manifest';
import { DEMO_INVESTIGATION_IDS, DEMO_ORGANIZATION_IDS, demoUser } from '#core/seed/demo';
import type { Reply, TwinTest } from '../support/twin';

export const authorizationMatrix = (e2e: TwinTest): void => {
  // the point here is who gets in; the limiter has its own tests (test/ratelimit)

  const IDENTITIES = [
    'anonymous',
    'investigatorA',
    'investigatorB',
    'admin',
    'adminOfOrgA',
    'cronSecret',
    'wrongCronSecret',
    'expired',
  ] as const;
  type Identity = (typeof IDENTITIES)[number];

  const INVESTIGATION_A = DEMO_INVESTIGATION_IDS.northwind;
  let analysisA = '';
  let feedbackA = '';
  let chunkA = '';
  const bearer: Partial<Record<Identity, string>> = {};
  let investigationTitleA = '';

  /**
   * Org A's evidence items (each with a file awaiting its upload) and background documents, one per request: a route
   * that changes or deletes one must find it as it was for every identity, so each request names a fresh one. The
   * attachment named after an evidence id in a path is that item's.
   */
  const pools = { evidence: [] as { evidence: string; attachment: string }[], documents: [] as string[], imports: [] as string[] };
  let evidenceTaken = -1;
  let documentsTaken = -1;
  let topics = 0;

  /** Bodies that get past validation, so ownership decides the answer; other routes get none (400 counts as "let in"). */
  const BODIES: Record<string, () => unknown> = {
    'analysis-assess': () => ({ investigation_id: INVESTIGATION_A, analysis_type: 'summary' }),
    'analysis-create': () => ({ investigation_id: INVESTIGATION_A, analysis_type: 'summary' }),
    'analysis-engagement': () => ({ step: 'detail_reviewed' }),
    'analysis-feedback-create': () => ({ action: 'view' }),
    'investigation-create': () => ({ title: 'Matrix investigation' }),
    'investigation-update': () => ({ title: investigationTitleA }),
    'question-create': () => ({ text: 'Was the matrix question answered?' }),
    'topic-create': () => ({ title: `Matrix topic ${++topics}` }),
    'evidence-create': () => ({ title: 'Matrix item', content: 'A note for the matrix.' }),
    'evidence-update': () => ({ title: 'Matrix item, renamed' }),
    'attachment-add': () => ({ attachments: [{ file_name: 'matrix.txt', content_type: 'text/plain', size_bytes: 12 }] }),
    'background-document-create': () => ({ title: 'Matrix policy', file_name: 'policy.txt', content_type: 'text/plain', size_bytes: 12 }),
    'background-document-update': () => ({ included_for_ai: true }),
    'import-create': () => ({ format: 'ndjson', size_bytes: 100 }),
  };
  /** Query strings naming org A's resources. */
  const QUERIES: Record<string, () => string> = {
    'analysis-list': () => `investigation_id=${INVESTIGATION_A}`,
    'feedback-metrics': () => `investigation_id=${INVESTIGATION_A}`,
  };
  const PATH_PARAMS: Record<string, () => string> = {
    investigation_id: () => INVESTIGATION_A,
    analysis_id: () => analysisA,
    chunk_id: () => chunkA,
    prompt_type: () => 'analysis_question',
    feedback_id: () => feedbackA,
    evidence_id: () => pools.evidence[++evidenceTaken]!.evidence,
    attachment_id: () => pools.evidence[evidenceTaken]!.attachment,
    background_document_id: () => pools.documents[++documentsTaken]!,
    import_id: () => pools.imports[0]!,
  };

  type Route = HttpTrigger & { fn: FunctionSpec };

  const pathOf = (route: Route) =>
    route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = PATH_PARAMS[name];
      if (!value) throw new Error(`the matrix has no sample for path parameter {${name}} of ${route.fn.id}; add one to PATH_PARAMS`);
      return value();
    });

  /** Whether the request names something that belongs to org A (so org B must not see it exists). */
  const namesOrgAResource = (route: Route) =>
    /\{(investigation_id|analysis_id)\}/.test(route.path) ||
    route.fn.id in QUERIES ||
    JSON.stringify(BODIES[route.fn.id]?.() ?? null).includes(INVESTIGATION_A);

  const letIn = (status: number) => status !== 401 && status !== 403;
  /** an authorized caller's answer: anything but an auth refusal or a server fault */
  const served = (status: number) => letIn(status) && status < 500;

  /** What each identity must get, as a check on the status (with A's own answer for reference). */
  const expectation = (route: Route, who: Identity, status: number, statusOfA: number): string | undefined => {
    const unauthenticated = who === 'anonymous' || who === 'expired' || who === 'wrongCronSecret';
    switch (route.access) {
      case 'public':
        // a public route ignores the bearer (it may check something else, e.g. a webhook signature)
        return status !== 403 && status === statusOfA ? undefined : 'a public route answers every caller alike';
      case 'investigator':
      case 'admin': {
        if (unauthenticated || who === 'cronSecret') return status === 401 ? undefined : 'no valid token → 401';
        if (route.access === 'admin') {
          if (who === 'admin') return served(status) ? undefined : 'an admin is let in';
          return status === 403 ? undefined : 'an investigator, or an admin-group token with an organization, on an admin route → 403';
        }
        // an operator belongs to no organization: no investigation is theirs to read
        if (who === 'admin') return status === 403 ? undefined : 'an operator on an investigator route → 403';
        // an admin-group token of org A is, on investigator routes, org A's investigator
        if (who === 'adminOfOrgA') return served(status) && status === statusOfA ? undefined : "org A's token is served as org A";
        if (who === 'investigatorB' && namesOrgAResource(route)) {
          if (status === 404) return undefined;
          if (status === 400 && statusOfA === 400) return undefined; // no sample body: refused before ownership is looked at
          return "org A's resource is not found for org B → 404";
        }
        if (!served(status)) return 'an investigator is let in';
        return status === 404 ? "org A's own resource is found" : undefined;
      }
      case 'cron':
        if (who === 'cronSecret' || who === 'admin') {
          return status >= 200 && status < 300 ? undefined : 'the cron secret or an admin token runs it → 2xx';
        }
        if (who === 'investigatorA' || who === 'investigatorB' || who === 'adminOfOrgA')
          return status === 403 ? undefined : 'an investigator or org-bound admin token on a cron route → 403';
        return status === 401 ? undefined : 'a wrong or missing secret → 401';
    }
  };

  beforeAll(async () => {
    const { twin } = e2e;
    const a = demoUser('investigator', DEMO_ORGANIZATION_IDS.northwind);
    const [investigatorA, investigatorB, admin, adminOfOrgA, expired] = await Promise.all([
      e2e.token('investigator', DEMO_ORGANIZATION_IDS.northwind),
      e2e.token('investigator', DEMO_ORGANIZATION_IDS.harbor),
      e2e.token('admin'),
      // a member of org A put into the admin group, acting for the first time (no users row yet)
      twin.token({
        subject: 'org-a-admin-group',
        email: 'group.member@northwind.example',
        role: 'admin',
        organizationId: DEMO_ORGANIZATION_IDS.northwind,
      }),
      twin.token({ subject: a.idp_subject, email: a.email, role: a.role, organizationId: a.organization_id ?? undefined }, -60),
    ]);
    Object.assign(bearer, {
      investigatorA,
      investigatorB,
      admin,
      adminOfOrgA,
      expired,
      cronSecret: twin.cronSecret,
      wrongCronSecret: `${twin.cronSecret}-wrong`,
    });
    const created = await e2e.call('POST', '/api/analysis', investigatorA, { investigation_id: INVESTIGATION_A, analysis_type: 'summary' });
    expect(created.status).toBe(202);
    analysisA = created.body.analysis_id;
    // whatever generation made of it, give the analysis a chunk among its retrieval, as generation records one, for
    // GET …/retrieval/{chunk_id}: one the seed wrote for an evidence item of org A
    await e2e.pollUntilGenerated(analysisA, investigatorA);
    const { db } = twin.database;
    // a state every identity finds the same: a manual quality check of a generated analysis would start for the first
    // caller and be a 409 for the next (already running); of a failed one it is a 409 for every caller
    await db
      .updateTable('analyses')
      .set({ generation_status: 'failed', error_message: 'set by the matrix' })
      .where('id', '=', analysisA)
      .execute();
    const chunk = await db
      .selectFrom('text_chunks')
      .select(['id', 'evidence_item_id'])
      .where('investigation_id', '=', INVESTIGATION_A)
      .where('source_type', '=', 'content')
      .limit(1)
      .executeTakeFirstOrThrow();
    chunkA = chunk.id;
    const item = { id: chunk.evidence_item_id! };
    investigationTitleA = (
      await db.selectFrom('investigations').select('title').where('id', '=', INVESTIGATION_A).executeTakeFirstOrThrow()
    ).title;
    // the pools: one per identity for each route that names one (up to five routes name an evidence item)
    const deadline = new Date(Date.now() + 3_600_000);
    for (let i = 0; i < 6 * IDENTITIES.length; i++) {
      const evidence = (
        await db
          .insertInto('evidence_items')
          .values({ investigation_id: INVESTIGATION_A, title: `Pool item ${i}` })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      const attachment = (
        await db
          .insertInto('attachments')
          .values({
            evidence_item_id: evidence,
            file_name: 'pool.txt',
            content_type: 'text/plain',
            size_bytes: 4,
            storage_key: `org/${DEMO_ORGANIZATION_IDS.northwind}/inv/${INVESTIGATION_A}/attachments/${crypto.randomUUID()}/pool.txt`,
            extraction_status: 'awaiting_upload',
            upload_deadline: deadline,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      pools.evidence.push({ evidence, attachment });
      pools.documents.push(
        (
          await db
            .insertInto('background_documents')
            .values({
              investigation_id: INVESTIGATION_A,
              title: `Pool document ${i}`,
              file_name: 'pool.txt',
              content_type: 'text/plain',
              storage_key: `org/${DEMO_ORGANIZATION_IDS.northwind}/inv/${INVESTIGATION_A}/background/${crypto.randomUUID()}/pool.txt`,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    }
    pools.imports.push(
      (
        await db
          .insertInto('imports')
          .values({
            investigation_id: INVESTIGATION_A,
            format: 'ndjson',
            size_bytes: 10,
            storage_key: `imports/${crypto.randomUUID()}`,
            upload_deadline: deadline,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    // generation recorded its retrieval when the demo's evidence was embedded in time; else one record is written here
    const recorded = await db
      .selectFrom('retrieval_records')
      .select('chunk_id')
      .where('analysis_id', '=', analysisA)
      .where('chunk_id', 'is not', null)
      .executeTakeFirst();
    if (recorded) chunkA = recorded.chunk_id!;
    else
      await db
        .insertInto('retrieval_records')
        .values({
          analysis_id: analysisA,
          rank: 1,
          chunk_id: chunkA,
          source_type: 'content',
          evidence_item_id: item.id,
          similarity: 0.5,
          included: true,
        })
        .execute();
    // a feedback record of org A's, for the routes that name one (stored directly, as the analysis has no output to judge)
    feedbackA = (
      await db
        .insertInto('feedback')
        .values({ analysis_id: analysisA, action: 'view', status: 'viewed' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }, 60_000);

  const send = async (route: Route, who: Identity): Promise<Reply> => {
    const query = QUERIES[route.fn.id]?.();
    const body = BODIES[route.fn.id]?.();
    const res = await fetch(`${e2e.twin.url}${pathOf(route)}${query ? `?${query}` : ''}`, {
      method: route.method,
      headers: {
        ...(bearer[who] && { authorization: `Bearer ${bearer[who]}` }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text, headers: res.headers };
  };

  test('every route of the manifest × every identity gets the status its access level and ownership call for', async () => {
    const routes = httpRoutes();
    expect(routes.length).toBeGreaterThan(30);
    const rows: string[] = [];
    const wrong: string[] = [];
    for (const route of routes) {
      const statuses = {} as Record<Identity, number>;
      // org A's investigator first: the others are judged against its answer
      for (const who of ['investigatorA', ...IDENTITIES.filter((i) => i !== 'investigatorA')] as Identity[]) {
        const res = await send(route, who);
        statuses[who] = res.status;
        const problem = expectation(route, who, res.status, statuses.investigatorA);
        if (problem) wrong.push(`${route.method} ${route.path} as ${who}: ${res.status} — expected ${problem} (${res.body.slice(0, 160)})`);
      }
      rows.push(
        `${`${route.method} ${route.path}`.padEnd(52)} ${route.access.padEnd(12)} ${IDENTITIES.map((i) => `${i}=${statuses[i]}`).join(' ')}`,
      );
    }
    if (wrong.length > 0) console.log(`authorization matrix:\n${rows.join('\n')}`);
    expect(wrong).toEqual([]);
  }, 240_000);

  test("org B's list of investigations holds none of org A's", async () => {
    const res = await e2e.call('GET', '/api/investigations', bearer.investigatorB);
    expect(res.status).toBe(200);
    const ids = res.body.investigations.map((i: { investigation_id: string }) => i.investigation_id);
    expect(ids).toContain(DEMO_INVESTIGATION_IDS.harbor);
    expect(ids).not.toContain(INVESTIGATION_A);
  });
};
