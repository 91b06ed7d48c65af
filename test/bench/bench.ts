/**
 * `npm run bench` — prints figures, asserts nothing:
 * 1. twin start time: after a source change (synthesis + bundles + initdb and migrations + a cold start), cold
 *    (cloud assembly and migrated database cached, empty twin folder: a copy of the migrated database, the
 *    migrations' check, the demo seed) and warm (same folder again); then a first start as `npm start` runs it
 *    (schedules on): when its start-up embedding sweep finishes and how much of each AI region's minute it used;
 * 2. per-function bundle size, bundled with the options CDK deploys with;
 * 3. handler init time: a fresh Node process loading each bundle (the Lambda cold-start share that is ours);
 * 4. AI gateway overhead per call against the Bedrock stand-in (gateway vs the bare SDK client);
 * 5. quota use under a burst: achieved requests per minute per region vs the 50 allowed, and overruns;
 * 6. assess latency through HTTP with 100,000 evidence items, on PGlite and real PostgreSQL;
 * 7. retrieval recall@20 and latency by strategy (exact, HNSW settings, quantized indexes with re-rank, the proposed
 *    rule) on two corpora and two layouts, with the index build times (./analysis-bench.ts);
 *    `npm run bench -- retrieval --chunks 20000 --engine postgres --corpus clustered --layout spread`;
 * 8. embedding throughput: chunks written at once until all are embedded by the embedding work, and the model
 *    requests it took (./embedding-bench.ts); `npm run bench -- embedding --engine pglite --chunks 10000`;
 * 9. ingestion: documents through the API into the twin with the quota enforced — time from the last upload until all
 *    are analysable, model requests per 1,000 chunks, chunks a minute, the routes' p99 (./ingest-bench.ts);
 * 10. relevance: recall@8 and nDCG@8 of the service's retrieval over the demo's judgments, with the Bedrock stand-in
 *    embedding by hashing and by meaning, and the similarity ranges of relevant and irrelevant chunks (./relevance-bench.ts);
 * 11. tokens: the quality checks' input tokens billed per verified analysis, with and without prompt caching, for the
 *    default quality model and Sonnet 4.5 (./tokens-bench.ts).
 * 12. throughput: analyses end to end with the stand-in at Bedrock's pace and the quota enforced, analyses verified a
 *    minute against the rate the quota allows (./throughput-bench.ts); `npm run bench -- throughput --organizations 1`.
 *
 * Sections are selectable by name: `npm run bench -- assess retrieval` runs only those two;
 * `npm run bench -- bundles --why` adds what each bundle is made of, `--why=<function id>` why each part is there;
 * `npm run bench` runs all (gateway, quota, bundles, twin, assess, retrieval, embedding, ingest, relevance, tokens, throughput); `--markdown` also writes the
 * headline figures with their goals to docs/benchmarks.md (./summary.ts), replacing the sections that ran.
 * Real-PostgreSQL rows need BENCH_DATABASE_URL (a server with pgvector; a scratch database is
 * created and dropped per run), e.g. `BENCH_DATABASE_URL="$(bash scripts/ci/postgres.sh start | tail -n1)"`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { buildSync } from 'esbuild';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Pool } from 'pg';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { assessBench, retrievalBench } from './analysis-bench';
import { embeddingBench } from './embedding-bench';
import { tokensBench } from './tokens-bench';
import { throughputBench } from './throughput-bench';
import { benchGateway } from './bench-support';
import { ingestBench } from './ingest-bench';
import { relevanceBench } from './relevance-bench';
import { figure, writeSummary } from './summary';
import { acquire, BACKGROUND_PRIMARY_LIMIT, QUOTA_LIMIT, QUOTA_WINDOW_MS } from '#core/ai/quota';
import { DEFAULT_AI_MODELS } from '#core/config';
import { openPglite } from '#core/db/pglite';
import { migrateToLatest } from '#core/db/migrate';
import type { Database } from '#core/db/schema';
import { appSourceHash, CACHE_ROOT } from '../../lib/twin/assembly/assembly';
import { migratedDataDirCache } from '../../lib/twin/database/pgdata-template';
import { ENDPOINTS_FILE, type TwinEndpoints } from '../../lib/twin/running';
import { AI_REGIONS } from '../../lib/twin/twin';
import { startBedrockStandin } from '../../lib/twin/bedrock/standin';
import { SimulatedTime } from '../support/simulated-time';
import { functionFacts, functions } from '#manifest';
import { PROJECT_ROOT } from '../../lib/paths';
import { esbuildOptions } from '../../lib/bundling';
import { standinClients } from '../support/standin-clients';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Spawns `npm start`'s entry on a free port; resolves with ms until the ready banner, then stops it. */
const timeTwinStart = (twinDir: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('tsx', ['lib/twin/cli/start.ts'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, PORT: '0', TWIN_DIR: twinDir, TWIN_LOG: 'quiet', TWIN_SCHEDULES: 'off' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let elapsed: number | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (elapsed === undefined && out.includes('Ctrl-C stops')) {
        elapsed = performance.now() - started;
        child.kill('SIGINT');
      }
    });
    child.on('exit', (code) => (elapsed !== undefined ? resolve(elapsed) : reject(new Error(`twin exited with ${code}: ${out}`))));
  });

/**
 * A first start as `npm start` runs it (schedules on): ms to the ready banner, ms from it until the start-up
 * embedding sweep has finished, the sweep's report, and the AI requests granted per region (all in its first minute).
 */
const timeStartUpSweep = (twinDir: string) =>
  new Promise<{ readyMs: number; sweepMs: number; report: Record<string, unknown>; grants: Record<string, number> }>((resolve, reject) => {
    const started = performance.now();
    const child = spawn('tsx', ['lib/twin/cli/start.ts'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, PORT: '0', TWIN_DIR: twinDir, TWIN_LOG: '', TWIN_SCHEDULES: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let readyMs: number | undefined;
    let result: Awaited<ReturnType<typeof timeStartUpSweep>> | undefined;
    let failure: unknown;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (readyMs === undefined && out.includes('Ctrl-C stops')) readyMs = performance.now() - started;
      const swept = /\[twin\] embedding-sweeper \(rate\(1 hour\)\): (\{.*\})/.exec(out);
      if (readyMs === undefined || !swept || result || failure) return;
      const sweepMs = performance.now() - started - readyMs;
      const { database } = JSON.parse(readFileSync(join(twinDir, ENDPOINTS_FILE), 'utf8')) as TwinEndpoints;
      const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new Pool({ connectionString: database, max: 1 }) }) });
      sql<{ region: string; n: number }>`select region, count(*)::int as n from ai_quota_reservations where granted group by region`
        .execute(db)
        .then(({ rows }) => {
          result = {
            readyMs: readyMs!,
            sweepMs,
            report: JSON.parse(swept[1]!),
            grants: Object.fromEntries(rows.map((r) => [r.region, r.n])),
          };
        })
        .catch((error: unknown) => {
          failure = error;
        })
        .finally(() => {
          void db.destroy();
          child.kill('SIGINT');
        });
    });
    child.on('exit', (code) => (result ? resolve(result) : reject(failure ?? new Error(`twin exited with ${code}: ${out.slice(-2000)}`))));
  });

const twinStart = async () => {
  const changed: number[] = [];
  const cold: number[] = [];
  const warm: number[] = [];
  // what a source change invalidates: the synthesized assembly and the bundles of this source hash, and (a change
  // to the migrations) the migrated database the first starts copy
  const rendered = join(CACHE_ROOT, appSourceHash());
  const migrated = await migratedDataDirCache();
  for (let i = 0; i < RUNS; i++) {
    const fresh = () => mkdtempSync(join(tmpdir(), 'ias-bench-twin-'));
    const dirs = [fresh(), fresh()];
    try {
      rmSync(rendered, { recursive: true, force: true });
      rmSync(migrated, { recursive: true, force: true });
      changed.push(await timeTwinStart(dirs[0]!));
      cold.push(await timeTwinStart(dirs[1]!));
      warm.push(await timeTwinStart(dirs[1]!));
    } finally {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  }
  const row = (label: string, values: number[]) =>
    console.log(
      `  ${label.padEnd(66)} ${(median(values) / 1000).toFixed(2)} s   runs: ${values.map((v) => (v / 1000).toFixed(2)).join(', ')}`,
    );
  console.log(
    `\nTwin start (spawn → ready banner, median of ${RUNS}; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs):`,
  );
  row('after a source change (synthesis + bundles + initdb + migrations)', changed);
  row('cold (cached; empty folder: migrated copy, migrations, seed) ≤ 5 s', cold);
  row('warm (existing folder) ≤ 2 s', warm);
  const how = `spawn to the ready banner, median of ${RUNS}`;
  figure('twin', { name: 'start after a source change', value: median(changed) / 1000, unit: 's', note: how });
  figure('twin', {
    name: 'cold start (assembly cached, empty folder)',
    value: median(cold) / 1000,
    unit: 's',
    goal: { atMost: 5 },
    engine: 'PGlite',
    note: how,
  });
  figure('twin', {
    name: 'warm start (existing folder)',
    value: median(warm) / 1000,
    unit: 's',
    goal: { atMost: 2 },
    engine: 'PGlite',
    note: how,
  });
  const dir = mkdtempSync(join(tmpdir(), 'ias-bench-twin-'));
  try {
    const { readyMs, sweepMs, report, grants } = await timeStartUpSweep(dir);
    const { primary, fallback } = AI_REGIONS;
    console.log(
      `  first start as npm start runs it: ready ${(readyMs / 1000).toFixed(2)} s, start-up sweep done ${(sweepMs / 1000).toFixed(2)} s later` +
        ` (${String(report.chunks)} chunks, ${String(report.stopped_by)}); requests ${primary} ${grants[primary] ?? 0}` +
        ` (≤ ${BACKGROUND_PRIMARY_LIMIT} of ${QUOTA_LIMIT}), ${fallback} ${grants[fallback] ?? 0}`,
    );
    figure('twin', {
      name: `start-up sweep: ${primary} requests in its first minute`,
      value: grants[primary] ?? 0,
      unit: '',
      goal: { atMost: BACKGROUND_PRIMARY_LIMIT },
      note: `${String(report.chunks)} chunks embedded ${(sweepMs / 1000).toFixed(1)} s after ready; the rest of the ${QUOTA_LIMIT} a minute stays for analyses`,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** What a bundle is made of: its inputs grouped by npm package, or by project folder for the project's own code. */
const inputGroup = (path: string): string => {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  return pkg
    ? pkg[1]!
    : path
        .split('/')
        .slice(0, path.startsWith('layers/') ? 3 : 2)
        .join('/');
};

type Metafile = NonNullable<ReturnType<typeof buildSync>['metafile']>;

const groupBytes = (metafile: Metafile): [string, number][] => {
  const bytes = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs))
      bytes.set(inputGroup(path), (bytes.get(inputGroup(path)) ?? 0) + bytesInOutput);
  }
  return [...bytes].sort((a, b) => b[1] - a[1]);
};

/** The shortest import chain from the entry to each group, as `a → b → c` of the first file reached in each group. */
const importChains = (metafile: Metafile, entry: string): Map<string, string[]> => {
  const chains = new Map<string, string[]>();
  const seen = new Map<string, string[]>([[entry, [entry]]]);
  for (const queue = [entry]; queue.length > 0; ) {
    const file = queue.shift()!;
    const chain = seen.get(file)!;
    if (!chains.has(inputGroup(file))) chains.set(inputGroup(file), chain);
    for (const { path } of metafile.inputs[file]?.imports ?? []) {
      if (seen.has(path) || !(path in metafile.inputs)) continue;
      seen.set(path, [...chain, path]);
      queue.push(path);
    }
  }
  return chains;
};

const kB = (bytes: number) => `${(bytes / 1024).toFixed(0)} kB`;

/**
 * The targets the table is read against, as issue 28 restated issue 16's once the Powertools Tracer stayed (its X-Ray
 * SDK is about 95 kB and 12 ms of every function's init). The functions that carry a document library are judged apart, each
 * against its own target: text extraction carries the document parsers (PDF, DOCX, e-mail) — a background document's
 * text, and an arriving file's since issue 26 —, and the export (issue 27) the PDF writer (pdf-lib with its standard
 * fonts, about 420 kB), which no other function carries.
 */
const TARGETS = {
  medianKb: 560,
  maxKb: 850,
  initMedianMs: 65,
  apart: { 'background-extract-text': 3072, 'ingestion-worker': 3072, 'analysis-export': 1100 } as Record<string, number>,
};

/**
 * Every function bundled as deployed (lib/bundling.ts), its size and its init time in a fresh Node process.
 * `--why` adds each function's largest inputs; `--why=<function id>` lists that function's inputs with
 * the import chain that brings each in.
 */
const bundles = (flags: string[]) => {
  const why = flags.find((f) => f === '--why' || f.startsWith('--why='));
  const only = why?.startsWith('--why=') ? why.slice('--why='.length) : undefined;
  const selected = only ? functions.filter((fn) => fn.id === only) : functions;
  if (selected.length === 0) throw new Error(`no function '${only}'; functions: ${functions.map((fn) => fn.id).join(', ')}`);
  const outDir = join(PROJECT_ROOT, '.bench', 'bundles');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const rows: { id: string; entry: string; bytes: number; initMs: number; cpuMs: number; metafile: Metafile }[] = [];
  for (const fn of selected) {
    const outfile = join(outDir, fn.id, 'index.js');
    const { metafile } = buildSync({ ...esbuildOptions(), entryPoints: [join(PROJECT_ROOT, fn.entry)], outfile, metafile: true });
    // wall time, and the process's CPU time over the same span (steadier when other work shares the machine);
    // node:http is loaded first, as in Lambda: the Node.js runtime's Runtime API client (RAPIDClient) requires
    // it before it loads the handler, so it is not part of the handler's init
    const script =
      `require('node:http');const c=process.cpuUsage(),t=performance.now();require(${JSON.stringify(outfile)});const u=process.cpuUsage(c);` +
      'process.stdout.write(`${performance.now()-t} ${(u.user+u.system)/1000}`)';
    const inits = Array.from({ length: RUNS }, () =>
      execFileSync(process.execPath, ['-e', script], {
        cwd: PROJECT_ROOT,
        encoding: 'utf8',
        // a function runs without NODE_OPTIONS, and with its own id and manifest facts (lib/stacks/service-function.ts)
        env: { ...process.env, NODE_OPTIONS: '', FUNCTION_ID: fn.id, FUNCTION_FACTS: JSON.stringify(functionFacts(fn)) },
      }),
    ).map((out) => out.split(' ').map(Number) as [number, number]);
    rows.push({
      id: fn.id,
      entry: fn.entry,
      bytes: statSync(outfile).size,
      initMs: median(inits.map(([wall]) => wall)),
      cpuMs: median(inits.map(([, cpu]) => cpu)),
      metafile: metafile!,
    });
  }
  console.log(
    `\nPer-function bundle (lib/bundling.ts: minified, the AWS SDK bundled, as deployed) and handler init` +
      ` (fresh process, median of ${RUNS}; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs):`,
  );
  console.log(
    `  ${'function'.padEnd(26)} ${'bundle'.padStart(9)} ${'init'.padStart(9)} ${'init CPU'.padStart(9)}  ${why ? 'largest inputs' : 'entry'}`,
  );
  for (const r of rows) {
    const detail = why
      ? groupBytes(r.metafile)
          .slice(0, 6)
          .map(([group, bytes]) => `${group} ${kB(bytes)}`)
          .join(', ')
      : r.entry;
    console.log(
      `  ${r.id.padEnd(26)} ${kB(r.bytes).padStart(9)} ${`${r.initMs.toFixed(1)} ms`.padStart(9)} ${`${r.cpuMs.toFixed(1)} ms`.padStart(9)}  ${detail}`,
    );
  }
  if (only) {
    const [row] = rows;
    const chains = importChains(row!.metafile, Object.keys(row!.metafile.inputs).find((path) => path.endsWith(row!.entry))!);
    console.log(`\n  ${row!.id}: inputs by package or folder, with the import chain that brings each in`);
    for (const [group, bytes] of groupBytes(row!.metafile)) {
      if (bytes < 1024) continue;
      // each step named by its package or project file, consecutive steps within one package shown once
      const steps = (chains.get(group) ?? [])
        .slice(1)
        .map((path) =>
          inputGroup(path) === group || !path.includes('node_modules/') ? path.replace(/^.*node_modules\//, '') : inputGroup(path),
        );
      console.log(`  ${kB(bytes).padStart(8)}  ${group.padEnd(36)} ${steps.filter((step, i) => step !== steps[i - 1]).join(' → ')}`);
    }
    return;
  }
  const sizes = rows.map((r) => r.bytes / 1024);
  const others = rows.filter((r) => !(r.id in TARGETS.apart));
  const largest = others.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const apart = rows.filter((r) => r.id in TARGETS.apart);
  const initMedian = median(rows.map((r) => r.initMs));
  const cpuMedian = median(rows.map((r) => r.cpuMs));
  console.log(
    `  ${rows.length} functions: bundle median ${median(sizes).toFixed(0)} kB (target ≤ ${TARGETS.medianKb}),` +
      ` largest but the document functions ${kB(largest.bytes)} ${largest.id} (target ≤ ${TARGETS.maxKb}),` +
      ` ${others.filter((r) => r.bytes / 1024 > TARGETS.maxKb).length} above ${TARGETS.maxKb} kB` +
      `${apart.map((r) => `, ${r.id} ${kB(r.bytes)} (target ≤ ${TARGETS.apart[r.id]})`).join('')}; init median ${initMedian.toFixed(1)} ms (target ≤ ${TARGETS.initMedianMs}), CPU ${cpuMedian.toFixed(1)} ms`,
  );
  const how = `${rows.length} functions, minified as deployed`;
  figure('bundles', { name: 'bundle median', value: median(sizes), unit: 'kB', goal: { atMost: TARGETS.medianKb }, note: how });
  figure('bundles', {
    name: `largest bundle but the document functions (${largest.id})`,
    value: largest.bytes / 1024,
    unit: 'kB',
    goal: { atMost: TARGETS.maxKb },
  });
  for (const fn of apart)
    figure('bundles', { name: `${fn.id} bundle`, value: fn.bytes / 1024, unit: 'kB', goal: { atMost: TARGETS.apart[fn.id]! } });
  figure('bundles', {
    name: 'handler init median',
    value: initMedian,
    unit: 'ms',
    goal: { atMost: TARGETS.initMedianMs },
    note: `fresh process, node:http preloaded as in Lambda, median of ${RUNS} per function`,
  });
};

const memoryDatabase = async (): Promise<Kysely<Database>> => {
  const db = new Kysely<Database>({ dialect: new PGliteDialect(await openPglite('memory://')) });
  await migrateToLatest(db as Kysely<unknown>);
  return db;
};

const gatewayOverhead = async () => {
  const CALLS = 100;
  const db = await memoryDatabase();
  const standin = await startBedrockStandin();
  const { client, destroyAll } = standinClients(() => standin.url);
  const gateway = benchGateway(
    {
      db,
      client,
      // a fresh minute per call keeps the quota out of this measurement (it is measured below)
      now: (() => {
        let t = Date.UTC(2026, 0, 1);
        return () => new Date((t += QUOTA_WINDOW_MS));
      })(),
    },
    { quotaMaxWaitMs: 0 },
  );
  const prompt = '[chunk:c1] The invoice was approved by Marcus Hale on 4 March.\n\nWho approved the invoice? Answer in JSON.';
  const command = new ConverseCommand({ modelId: DEFAULT_AI_MODELS.analysis, messages: [{ role: 'user', content: [{ text: prompt }] }] });
  const time = async (fn: () => Promise<unknown>) => {
    const samples: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      await fn();
      samples.push(performance.now() - started);
    }
    return median(samples);
  };
  await time(() => client('us-east-1').send(command)); // warm both paths
  const bare = await time(() => client('us-east-1').send(command));
  const through = await time(() => gateway.converse({ purpose: 'analysis', system: 'Answer in JSON.', prompt }));
  console.log(`\nAI gateway overhead (median of ${CALLS} sequential Converse calls against the stand-in, embedded PGlite):`);
  console.log(
    `  bare SDK client ${bare.toFixed(2)} ms, through the gateway ${through.toFixed(2)} ms → overhead ${(through - bare).toFixed(2)} ms per call (quota slot + ledger row)`,
  );
  figure('gateway', {
    name: 'AI gateway overhead per call',
    value: through - bare,
    unit: 'ms',
    engine: 'PGlite',
    note: `median of ${CALLS} Converse calls, gateway minus the bare SDK client`,
  });
  destroyAll();
  await standin.stop();
  await db.destroy();
};

const quotaBurst = async () => {
  const db = await memoryDatabase();
  const start = Date.UTC(2026, 0, 1);
  const time = new SimulatedTime(start);
  const MINUTES = 5;
  const CALLERS = 1000; // 200 a minute against 100 a minute of capacity (50 per region)
  const grants: { region: string; at: number }[] = [];
  const calls = Array.from({ length: CALLERS }, (_, i) =>
    time.spawn(Math.floor((i * MINUTES * 60_000) / CALLERS), async () => {
      const region = await acquire(db, { regions: ['us-east-1', 'us-west-2'], now: time.now, sleep: time.sleep, maxWaitMs: 30_000 }).catch(
        () => undefined,
      );
      if (region) grants.push({ region, at: time.now().getTime() });
    }),
  );
  time.start();
  await Promise.all(calls);
  console.log(
    `\nQuota under a burst (${CALLERS} callers over ${MINUTES} simulated minutes, ${QUOTA_LIMIT}/min per region, waits up to 30 s):`,
  );
  for (const region of ['us-east-1', 'us-west-2']) {
    const stamps = grants
      .filter((g) => g.region === region)
      .map((g) => g.at)
      .sort((a, b) => a - b);
    let worst = 0;
    for (let i = 0, j = 0; i < stamps.length; i++) {
      while (j < stamps.length && stamps[j]! < stamps[i]! + QUOTA_WINDOW_MS) j++;
      worst = Math.max(worst, j - i);
    }
    const inBurst = stamps.filter((t) => t < start + MINUTES * 60_000).length;
    console.log(
      `  ${region}: ${stamps.length} granted (${(inBurst / MINUTES).toFixed(1)} req/min over the ${MINUTES} minutes), busiest 60-s window ${worst}, overruns ${Math.max(0, worst - QUOTA_LIMIT)}`,
    );
    figure('quota', {
      name: `${region}: busiest 60-s window`,
      value: worst,
      unit: '',
      goal: { atMost: QUOTA_LIMIT },
      engine: 'PGlite',
      note: `${CALLERS} callers over ${MINUTES} simulated minutes; requests granted per region`,
    });
  }
  console.log(`  refused after waiting 30 s: ${CALLERS - grants.length}`);
  await db.destroy();
};

const SECTIONS: Record<string, (flags: string[]) => unknown> = {
  gateway: gatewayOverhead,
  quota: quotaBurst,
  bundles,
  twin: twinStart,
  assess: assessBench,
  retrieval: retrievalBench,
  embedding: embeddingBench,
  ingest: ingestBench,
  relevance: relevanceBench,
  tokens: tokensBench,
  throughput: throughputBench,
};

const main = async () => {
  // `--name value` becomes `--name=value` unless the value is a flag or a section name
  const args = process.argv.slice(2);
  const asked: string[] = [];
  const flags: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = args[i + 1];
    if (!arg.startsWith('--')) asked.push(arg);
    else if (!arg.includes('=') && value !== undefined && !value.startsWith('--') && !(value in SECTIONS)) {
      flags.push(`${arg}=${value}`);
      i++;
    } else flags.push(arg);
  }
  const unknown = asked.filter((name) => !(name in SECTIONS));
  if (unknown.length > 0) {
    console.error(`unknown bench section(s): ${unknown.join(', ')}; sections: ${Object.keys(SECTIONS).join(', ')}`);
    process.exit(2);
  }
  const selected = asked.length > 0 ? Object.keys(SECTIONS).filter((name) => asked.includes(name)) : Object.keys(SECTIONS);
  console.log(`Node ${process.version}, ${RUNS} run(s) each; sections: ${selected.join(', ')}`);
  for (const name of selected) {
    const started = performance.now();
    await SECTIONS[name]!(flags);
    console.log(`  [${name}: ${((performance.now() - started) / 1000).toFixed(1)} s]`);
  }
  if (flags.includes('--markdown')) {
    const written = writeSummary(join(PROJECT_ROOT, 'docs', 'benchmarks.md'), Object.keys(SECTIONS));
    console.log(`docs/benchmarks.md: ${written.length > 0 ? written.join(', ') : 'no figures recorded'} written`);
  }
};

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
