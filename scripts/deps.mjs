// `npm run deps`: the module graph's rules (.dependency-cruiser.cjs) over the whole tree, by dependency-cruiser.
// Prints one line of counts per rule (what the graph has, and how many of those the known-violations
// baseline lists), then any violation the baseline does not list, which fails the run. With --ignore-known,
// a listed violation comes back with severity 'ignore'; every other severity is new.
// `npm run deps -- --baseline` rewrites the baseline (.dependency-cruiser-known-violations.json) from the tree.
import { execFileSync } from 'node:child_process';

const ROOTS = ['layers', 'functions', 'lib', 'bin', 'evals', 'scripts', 'web', 'test'];
const BASELINE = '.dependency-cruiser-known-violations.json';
const depcruise = (...args) => {
  try {
    return execFileSync('depcruise', ['--config', '.dependency-cruiser.cjs', ...args, ...ROOTS], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  } catch (error) {
    // it exits with the number of errors; the report is still on stdout
    if (typeof error.status === 'number' && error.stdout) return error.stdout;
    throw error;
  }
};

const LABELS = {
  'no-circular': 'file cycles',
  'feature-to-http': 'feature→http imports',
  'product-to-twin': 'product→lib/twin imports',
  'product-to-functions': 'layers→functions imports',
  'not-to-test': 'imports of test/ from outside it',
  'product-to-dev-dependency': 'product→devDependency imports',
  'not-to-unresolvable': 'unresolvable imports',
};

const describe = (v) => {
  if (v.cycle?.length) return `${v.from} → ${v.cycle.map((step) => step.name ?? step).join(' → ')}`;
  return `${v.from} → ${v.to}`;
};

/** @param {import('dependency-cruiser').ICruiseResult} result */
const report = (result) => {
  const { summary } = result;
  const rules = [...new Set([...Object.keys(LABELS), ...summary.violations.map((v) => v.rule.name)])];
  const lines = [`deps: ${summary.totalCruised} modules, ${summary.totalDependenciesCruised} dependencies`];
  for (const rule of rules) {
    const all = summary.violations.filter((v) => v.rule.name === rule);
    const known = all.filter((v) => v.rule.severity === 'ignore').length;
    lines.push(
      `  ${(LABELS[rule] ?? rule).padEnd(34)} ${String(all.length).padStart(3)}${known ? ` (${known} known: .dependency-cruiser-known-violations.json)` : ''}`,
    );
  }
  const fresh = summary.violations.filter((v) => v.rule.severity !== 'ignore');
  if (summary.baselineStale) {
    lines.push(`  ${summary.baselineStale} listed violation(s) are gone: \`npm run deps -- --baseline\` shrinks the list`);
  }
  if (fresh.length > 0) {
    lines.push('', `${fresh.length} new violation(s):`);
    for (const v of fresh) lines.push(`  ${v.rule.name}: ${describe(v)}`);
  }
  return { output: `${lines.join('\n')}\n`, exitCode: fresh.length > 0 ? 1 : 0 };
};

if (process.argv.includes('--baseline')) {
  process.stdout.write(depcruise('--baseline', BASELINE, '--output-type', 'null'));
  console.log(`deps: ${BASELINE} rewritten`);
} else {
  const { output, exitCode } = report(JSON.parse(depcruise('--ignore-known', BASELINE, '--output-type', 'json')));
  process.stdout.write(output);
  process.exitCode = exitCode;
}
