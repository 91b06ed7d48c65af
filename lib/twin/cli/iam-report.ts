/**
 * `npm run iam-report`: least privilege from observed calls. The twins of a test run (`npm test`) record
 * every AWS call each function made and the IAM decision (test/support/env.ts points them at
 * IAM_CALLS_FILE); this lists, per function of the deployment as synthesized, the grants no call used
 * and the calls that were refused. An unused grant the manifest does not justify (FunctionSpec.
 * unexercisedGrants, PLATFORM_GRANTS), or any refused call, fails the report (exit 1). Calls of twins
 * whose deployment a test changed on purpose (a removed grant) are left out.
 */
import { existsSync, readFileSync } from 'node:fs';
import { functions, grantJustification } from '#manifest';
import { MIGRATE_FUNCTION_ID } from '../../stacks/migrations';
import { iamReport, problemsOf, type RecordedCall } from '../iam/report';
import { renderDeployment } from '../assembly/deployment';
import { IAM_CALLS_FILE } from '../iam/decisions';

const main = async () => {
  if (!existsSync(IAM_CALLS_FILE)) {
    console.error(`No recorded calls in ${IAM_CALLS_FILE}: run the end-to-end tests first (npm test).`);
    process.exit(2);
  }
  const calls = readFileSync(IAM_CALLS_FILE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RecordedCall & { changedDeployment?: boolean })
    .filter((call) => !call.changedDeployment);
  const { plan } = await renderDeployment();
  // the migrate function runs at deploy time only; the twin migrates the database itself
  const runtime = plan.functions.filter((fn) => fn.id !== MIGRATE_FUNCTION_ID);
  const reports = iamReport(runtime, calls, (id, action, resource) =>
    grantJustification(
      functions.find((f) => f.id === id),
      action,
      resource,
    ),
  );
  for (const report of reports) {
    const open = report.unused.filter((g) => !g.justification);
    const line =
      `${report.functionId}: ${report.used} grant(s) used` +
      `${report.unused.length ? `, ${report.unused.length} unused (${report.unused.length - open.length} justified)` : ''}` +
      `${report.refused.length ? `, ${report.refused.length} refused call(s)` : ''}`;
    console.log(line);
    for (const g of report.unused)
      console.log(
        `  ${g.justification ? 'kept  ' : 'UNUSED'} ${g.action} on ${g.resource}${g.justification ? ` — ${g.justification}` : ''}`,
      );
    for (const c of report.refused) console.log(`  REFUSED ${c.action} on ${c.resource} (${c.count}×)`);
  }
  const problems = problemsOf(reports);
  console.log(
    `\n${calls.length} recorded calls; ${problems === 0 ? 'every grant used or justified, no call refused' : `${problems} problem(s)`}`,
  );
  process.exitCode = problems === 0 ? 0 : 1;
};

void main();
