/**
 * `npm run bench` — prints figures, asserts nothing:
 * 1. twin start time, cold (empty twin folder: initdb, migrations, demo seed) and warm (same folder again);
 * 2. per-function bundle size, bundled with the options CDK deploys with;
 * 3. handler init time: a fresh Node process loading each bundle (the Lambda cold-start share that is ours).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { entryOf, functions } from '../../lib/manifest';
import { PROJECT_ROOT } from '../../lib/paths';
import { EXTERNAL_MODULES } from '../../lib/stacks/service-function';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Spawns `npm start`'s entry on a free port; resolves with ms until the ready banner, then stops it. */
const timeTwinStart = (twinDir: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('tsx', ['lib/twin/main.ts'], {
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

const twinStart = async () => {
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'ias-bench-twin-'));
    try {
      cold.push(await timeTwinStart(dir));
      warm.push(await timeTwinStart(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(`\nTwin start (spawn → ready banner, median of ${RUNS}):`);
  console.log(`  cold (empty folder: initdb + migrations + demo seed)  ${(median(cold) / 1000).toFixed(2)} s   runs: ${cold.map((v) => (v / 1000).toFixed(2)).join(', ')}`);
  console.log(`  warm (existing folder)                               ${(median(warm) / 1000).toFixed(2)} s   runs: ${warm.map((v) => (v / 1000).toFixed(2)).join(', ')}`);
};

const bundles = () => {
  const outDir = join(PROJECT_ROOT, '.bench', 'bundles');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const rows: { id: string; entry: string; kb: number; initMs: number }[] = [];
  for (const fn of functions) {
    const outfile = join(outDir, `${fn.id}.js`);
    buildSync({
      entryPoints: [join(PROJECT_ROOT, entryOf(fn))], outfile, bundle: true, minify: true, platform: 'node', target: 'node22',
      format: 'cjs', external: EXTERNAL_MODULES, logLevel: 'error',
    });
    const script = `const t=performance.now();require(${JSON.stringify(outfile)});process.stdout.write(String(performance.now()-t))`;
    const inits = Array.from({ length: RUNS }, () => Number(execFileSync(process.execPath, ['-e', script], { cwd: PROJECT_ROOT, encoding: 'utf8' })));
    rows.push({ id: fn.id, entry: entryOf(fn), kb: statSync(outfile).size / 1024, initMs: median(inits) });
  }
  console.log(`\nPer-function bundle (esbuild, minified, @aws-sdk external as in the Lambda runtime) and handler init (fresh process, median of ${RUNS}):`);
  console.log(`  ${'function'.padEnd(26)} ${'bundle'.padStart(9)} ${'init'.padStart(9)}  entry`);
  for (const r of rows) console.log(`  ${r.id.padEnd(26)} ${`${r.kb.toFixed(0)} kB`.padStart(9)} ${`${r.initMs.toFixed(1)} ms`.padStart(9)}  ${r.entry}`);
  const kb = rows.map((r) => r.kb);
  console.log(`  ${functions.length} functions; bundle min ${Math.min(...kb).toFixed(0)} kB, max ${Math.max(...kb).toFixed(0)} kB; init median ${median(rows.map((r) => r.initMs)).toFixed(1)} ms`);
};

const main = async () => {
  console.log(`Node ${process.version}, ${RUNS} run(s) each`);
  bundles();
  await twinStart();
};

void main();
