// `npm run deps`: the module graph's rules (.dependency-cruiser.cjs) over the whole tree, by dependency-cruiser.
// Prints one line of counts per rule, then each violation; any violation fails the run.
import { execFileSync } from 'node:child_process';

const ROOTS = ['manifest', 'layers', 'functions', 'lib', 'bin', 'evals', 'scripts', 'web', 'test'];

const cruise = () => {
  try {
    return execFileSync('depcruise', ['--config', '.dependency-cruiser.cjs', '--output-type', 'json', ...ROOTS], {
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
  'product-to-lib': 'product→lib/ imports',
  'manifest-is-pure': 'manifest/→elsewhere imports',
  'product-to-functions': 'layers→functions imports',
  'not-to-test': 'imports of test/ from outside it',
  'unit-test-to-e2e-support': 'unit suites reaching e2e support',
  'product-to-dev-dependency': 'product→devDependency imports',
  'not-to-unresolvable': 'unresolvable imports',
};

const describe = (v) => (v.cycle?.length ? `${v.from} → ${v.cycle.map((step) => step.name ?? step).join(' → ')}` : `${v.from} → ${v.to}`);

/** @type {import('dependency-cruiser').ICruiseResult} */
const { summary } = JSON.parse(cruise());
const rules = [...new Set([...Object.keys(LABELS), ...summary.violations.map((v) => v.rule.name)])];
console.log(`deps: ${summary.totalCruised} modules, ${summary.totalDependenciesCruised} dependencies`);
for (const rule of rules) {
  console.log(
    `  ${(LABELS[rule] ?? rule).padEnd(34)} ${String(summary.violations.filter((v) => v.rule.name === rule).length).padStart(3)}`,
  );
}
for (const v of summary.violations) console.log(`  ${v.rule.name}: ${describe(v)}`);
process.exitCode = summary.violations.length > 0 ? 1 : 0;
