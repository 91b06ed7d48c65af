/**
 * `npm run bench -- throughput`: analyses end to end at the model quota (issue 29, item 1). A twin (PGlite, or
 * PostgreSQL with BENCH_DATABASE_URL) with the quota enforced (50 requests a minute a region, two regions) and the
 * Bedrock stand-in answering at Bedrock's pace (a Sonnet analysis in --analysis-s, each Haiku check in --check-s, an
 * embedding in --embed-ms). Organizations with an investigation of evidence each; in each, as many investigators as
 * the organization may have analyses in flight ask for a summary, wait until it rests (verified, unavailable or
 * failed) and ask again — more than the quota can serve, so the quota is what should bound the rate. Measured after
 * two minutes' ramp: analyses verified a minute against the quota-bound rate (the two regions' requests a minute over
 * the requests an analysis makes), model requests a minute by region, time from request to verified.
 *
 * Flags: `--organizations N` (3), `--minutes M` measured (4), `--analysis-s S` (30), `--check-s S` (5),
 * `--embed-ms MS` (300), `--generation-cap N` (the organizations' cap on analyses in flight, as CDK context
 * generationCap sets it; default the code's), `--engine pglite|postgres` (both; PostgreSQL with BENCH_DATABASE_URL).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { DEFAULT_GENERATION_CAP } from '#core/ratelimit/generation-cap';
import { ANALYSES_PER_MINUTE_AT_QUOTA, MODEL_REQUESTS_PER_ANALYSIS, QUOTA_LIMIT } from '#manifest/ai-capacity';
import { AI_REGIONS, type Twin } from '../../lib/twin/twin';
import { type Engine, ENGINE_NAMES, flagNumber, httpClient, log, onEngines, quantile, startBenchTwin } from './bench-support';
import { figure } from './summary';

/** issue 29: at least 90 % of the rate the quota allows */
const GOAL_SHARE = 0.9;
const RAMP_MS = 120_000;
const EVIDENCE_ITEMS = 20;
const RESTING = new Set(['verified', 'quality_unavailable', 'failed']);
const WORKERS = ['generation-worker', 'quality-worker'];

/** The most invocations that overlapped in time. */
const mostAtOnce = (invocations: readonly { startedAt: Date; durationMs: number }[]): number => {
  const edges = invocations.flatMap((i) => [
    { at: i.startedAt.getTime(), step: 1 },
    { at: i.startedAt.getTime() + i.durationMs, step: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let now = 0;
  let most = 0;
  for (const { step } of edges) most = Math.max(most, (now += step));
  return most;
};

interface Load {
  organizations: number;
  /** analyses in flight an organization may have, and so its investigators asking at once */
  cap: number;
  minutes: number;
}

interface Pace {
  analysisMs: number;
  checkMs: number;
  embedMs: number;
}

interface RunResult {
  engine: Engine;
  load: Load;
  pace: Pace;
  concurrency: Record<string, number | undefined>;
  /** the most invocations of each worker that ran at once */
  peak: Record<string, number>;
  verified: number;
  rested: Record<string, number>;
  requestsByRegion: Record<string, number>;
  /** the model requests made for the analyses verified in the run, by purpose, an analysis (4 when none is repeated) */
  requestsPerVerified: Record<string, number>;
  verifiedSeconds: number[];
  refusedByCap: number;
  /** why analyses failed or went unchecked, with how many each */
  problems: Record<string, number>;
}

const paragraph = (org: number, n: number) =>
  `Ledger entry ${n} of matter ${org}: a payment of ${(n * 7919) % 90_000} to supplier ${n % 13} on the ${1 + (n % 28)}th, ` +
  `approved by manager ${n % 5} and booked to account ${4000 + (n % 40)}. The invoice referenced order ${n * 31} and was ` +
  `settled ${n % 9} days late; the auditor noted that the supplier's bank details changed ${n % 3} times that quarter.`;

const throughputOn = async (engine: Engine, load: Load, pace: Pace, databaseUrl?: string): Promise<RunResult> => {
  const { organizations, cap, minutes } = load;
  const twinDir = mkdtempSync(join(tmpdir(), `ias-bench-throughput-${engine}-`));
  let twin: Twin | undefined;
  let stopping = false;
  try {
    twin = await startBenchTwin(twinDir, databaseUrl, { generationCap: String(cap) });
    const { db } = twin.database;
    const api = httpClient(organizations * cap);
    const call = async (method: string, path: string, token: string, body?: unknown) => {
      const res = await api(`${twin!.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: JSON.parse(res.body || 'null') as Record<string, unknown> };
    };

    log(`${engine}: ${organizations} organization(s), ${EVIDENCE_ITEMS} evidence items each; waiting until they are analysable`);
    const matters = await Promise.all(
      Array.from({ length: organizations }, async (_, org) => {
        const organizationId = (
          await db
            .insertInto('organizations')
            .values({ name: `Bench organization ${org + 1}` })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
        const token = await twin!.token({
          subject: `bench-investigator-${org}`,
          email: `bench${org}@example.com`,
          role: 'investigator',
          organizationId,
        });
        const investigation = (await call('POST', '/api/investigations', token, { title: `Matter ${org + 1}` })).body
          .investigation_id as string;
        for (let n = 0; n < EVIDENCE_ITEMS; n++) {
          const res = await call('POST', `/api/investigations/${investigation}/evidence`, token, {
            title: `Ledger ${n + 1}`,
            content: Array.from({ length: 6 }, (_, p) => paragraph(org, n * 6 + p)).join('\n\n'),
          });
          if (res.status !== 201) throw new Error(`evidence create answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
        }
        for (;;) {
          const state = (await call('GET', `/api/investigations/${investigation}/ingestion`, token)).body;
          if (state.items_processing === 0 && state.chunks_pending === 0) break;
          await sleep(1_000);
        }
        return { token, investigation };
      }),
    );

    // what ingestion spent of the quota is not the analyses'; from here on the models answer at Bedrock's pace
    await db.deleteFrom('ai_quota_reservations').execute();
    twin.bedrock.setPace({
      'anthropic.claude-sonnet': { firstTokenMs: 1_500, answerMs: Math.max(0, pace.analysisMs - 1_500) },
      'anthropic.claude-haiku': { firstTokenMs: 700, answerMs: Math.max(0, pace.checkMs - 700) },
      'cohere.embed': { firstTokenMs: pace.embedMs },
    });

    const started = Date.now();
    const measuredFrom = started + RAMP_MS;
    const endAt = measuredFrom + minutes * 60_000;
    log(`${engine}: ${organizations * cap} investigators asking for analyses; measuring ${minutes} min after a 2 min ramp`);

    // one watcher reads the analyses in flight from the database each second and wakes their investigators
    const waiting = new Map<string, () => void>();
    const watcher = (async () => {
      while (!stopping) {
        await sleep(1_000);
        if (waiting.size === 0) continue;
        const rows = await db
          .selectFrom('analyses')
          .select(['id', 'generation_status'])
          .where('id', 'in', [...waiting.keys()])
          .execute();
        for (const row of rows)
          if (RESTING.has(row.generation_status)) {
            waiting.get(row.id)?.();
            waiting.delete(row.id);
          }
      }
    })();
    let refusedByCap = 0;
    const investigator = async ({ token, investigation }: (typeof matters)[number]) => {
      while (Date.now() < endAt) {
        const res = await call('POST', '/api/analysis', token, { investigation_id: investigation, analysis_type: 'summary' });
        if (res.status === 429) {
          refusedByCap++;
          await sleep(1_000);
          continue;
        }
        if (res.status !== 202) throw new Error(`analysis request answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
        await new Promise<void>((resolve) => waiting.set(res.body.analysis_id as string, resolve));
      }
    };
    const run = Promise.all(matters.flatMap((matter) => Array.from({ length: cap }, () => investigator(matter))));
    // the run is over at endAt: the analyses still in flight then are not waited for
    await sleep(endAt - Date.now());
    const window = { from: new Date(measuredFrom), to: new Date(endAt) };
    const rows = await db
      .selectFrom('analyses')
      .select(['generation_status', 'created_at', 'quality_checked_at', 'updated_at', 'error_message', 'quality_error'])
      .where('updated_at', '>=', window.from)
      .where('updated_at', '<', window.to)
      .execute();
    const verifiedRows = rows.filter((r) => r.generation_status === 'verified' && r.quality_checked_at && r.quality_checked_at < window.to);
    const rested: Record<string, number> = {};
    const problems: Record<string, number> = {};
    for (const r of rows) {
      if (RESTING.has(r.generation_status)) rested[r.generation_status] = (rested[r.generation_status] ?? 0) + 1;
      const problem = r.error_message ?? r.quality_error;
      if (problem) problems[problem.slice(0, 160)] = (problems[problem.slice(0, 160)] ?? 0) + 1;
    }
    const { rows: requests } = await sql<{ region: string; n: number }>`
      select region, count(*)::int as n from ai_calls
      where outcome = 'ok' and created_at >= ${window.from} and created_at < ${window.to} group by region`.execute(db);
    const { rows: perVerified } = await sql<{ purpose: string; n: number }>`
      select c.purpose, count(*)::float / (select count(*) from analyses where generation_status = 'verified') as n
      from ai_calls c join analyses a on a.id = c.analysis_id
      where c.outcome = 'ok' and a.generation_status = 'verified' group by c.purpose`.execute(db);
    stopping = true;
    for (const wake of waiting.values()) wake();
    await Promise.all([watcher, run.catch(() => undefined)]);
    return {
      engine,
      load,
      pace,
      concurrency: Object.fromEntries(WORKERS.map((id) => [id, twin!.plan.eventSources.find((e) => e.functionId === id)?.maxConcurrency])),
      peak: Object.fromEntries(WORKERS.map((id) => [id, mostAtOnce(twin!.invocations(id))])),
      verified: verifiedRows.length,
      rested,
      requestsByRegion: Object.fromEntries(requests.map((r) => [r.region, r.n])),
      requestsPerVerified: Object.fromEntries(perVerified.map((r) => [r.purpose, r.n])),
      verifiedSeconds: verifiedRows.map((r) => (r.quality_checked_at!.getTime() - r.created_at.getTime()) / 1000),
      refusedByCap,
      problems,
    };
  } finally {
    stopping = true;
    await twin?.stop();
    rmSync(twinDir, { recursive: true, force: true });
  }
};

const report = (r: RunResult) => {
  const engine = ENGINE_NAMES[r.engine];
  const { organizations, cap, minutes } = r.load;
  const perMinute = r.verified / minutes;
  const share = perMinute / ANALYSES_PER_MINUTE_AT_QUOTA;
  const how =
    `${organizations} organization${organizations === 1 ? '' : 's'} × ${cap} investigators (the cap), ${minutes} min after a 2 min ramp; ` +
    `analysis ${r.pace.analysisMs / 1000} s, check ${r.pace.checkMs / 1000} s, embedding ${r.pace.embedMs} ms; workers ` +
    `${r.concurrency['generation-worker']} + ${r.concurrency['quality-worker']} at most (${r.peak['generation-worker']} + ${r.peak['quality-worker']} seen at once)`;
  console.log(`\n  ${engine} · ${how}`);
  console.log(
    `    analyses verified a minute            ${perMinute.toFixed(1)} of the ${ANALYSES_PER_MINUTE_AT_QUOTA} the quota allows (${(share * 100).toFixed(0)} %; goal ≥ ${GOAL_SHARE * 100} %)`,
  );
  console.log(
    `    model requests a minute by region     ${Object.entries(r.requestsByRegion)
      .map(([region, n]) => `${region} ${(n / minutes).toFixed(1)}`)
      .join(', ')} (each ≤ ${QUOTA_LIMIT})`,
  );
  const perVerified = Object.values(r.requestsPerVerified).reduce((a, b) => a + b, 0);
  console.log(
    `    model requests a verified analysis    ${perVerified.toFixed(2)} (${Object.entries(r.requestsPerVerified)
      .map(([purpose, n]) => `${purpose} ${n.toFixed(2)}`)
      .join(', ')}; ${MODEL_REQUESTS_PER_ANALYSIS} when none is made twice)`,
  );
  console.log(
    `    request → verified                    ${r.verifiedSeconds.length > 0 ? `p50 ${quantile(r.verifiedSeconds, 0.5).toFixed(1)} s, p90 ${quantile(r.verifiedSeconds, 0.9).toFixed(1)} s` : 'none verified'}`,
  );
  console.log(
    `    rested in the window                  ${Object.entries(r.rested)
      .map(([status, n]) => `${status} ${n}`)
      .join(', ')}; requests refused by the organization's cap: ${r.refusedByCap}`,
  );
  for (const [problem, n] of Object.entries(r.problems)) console.log(`      ${n} × ${problem}`);
  figure('throughput', {
    name: 'analyses verified a minute at the quota',
    value: perMinute,
    unit: '',
    engine,
    goal: { atLeast: GOAL_SHARE * ANALYSES_PER_MINUTE_AT_QUOTA },
    note: how,
  });
  if (r.verifiedSeconds.length > 0)
    figure('throughput', { name: 'request → verified p90', value: quantile(r.verifiedSeconds, 0.9), unit: 's', engine, note: how });
};

export const throughputBench = async (flags: string[] = []) => {
  const load: Load = {
    organizations: flagNumber(flags, 'organizations') ?? 3,
    cap: flagNumber(flags, 'generation-cap') ?? DEFAULT_GENERATION_CAP,
    minutes: flagNumber(flags, 'minutes') ?? 4,
  };
  const pace: Pace = {
    analysisMs: (flagNumber(flags, 'analysis-s') ?? 30) * 1000,
    checkMs: (flagNumber(flags, 'check-s') ?? 5) * 1000,
    embedMs: flagNumber(flags, 'embed-ms') ?? 300,
  };
  console.log(
    `\nThroughput (analyses end to end at Bedrock's pace with the quota enforced: ${QUOTA_LIMIT} requests a minute in each of ${Object.keys(AI_REGIONS).length} regions, ${MODEL_REQUESTS_PER_ANALYSIS} an analysis → ${ANALYSES_PER_MINUTE_AT_QUOTA} analyses a minute):`,
  );
  await onEngines(flags, 'throughput', async (engine, databaseUrl) => report(await throughputOn(engine, load, pace, databaseUrl)));
};
