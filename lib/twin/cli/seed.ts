/**
 * `npm run seed -- --file path.json` for the twin: the seed CLI (layers/core/seed/cli-seed.ts) with the
 * twin's storage. When no FILES_BUCKET is configured, it opens the twin's own S3 (fauxqs, in the twin
 * folder) so attachments and background documents land where the running twin will serve them from.
 * With `--stage <stage>` or `--twin`, the file goes through the stage's (or the running twin's)
 * import-investigations function instead (lib/operator/cli-import.ts). Into the embedded database only
 * while no twin runs (./running.ts): a running twin holds its database, and the tools' twin running on
 * another folder (the pointer) means this folder is not the one meant.
 */
import { join } from 'node:path';
import { reloadConfig } from '#core/config';
import { ENV } from '#manifest/runtime-names';
import { runningTwin } from '#core/db/embedded-lock';
import { runSeedCli } from '#core/seed/cli-seed';
import { runImportCli, wantsImport } from '../../operator/cli-import';
import { startLocalAws } from '../aws/local-aws';
import { forTwin, runningTwinIfAny } from '../running';
import { renderDeployment } from '../assembly/deployment';
import { twinDirectory } from '../../paths';

const main = async () => {
  const twinDir = twinDirectory();
  process.env[ENV.dataDir] ??= join(twinDir, 'pgdata');
  const args = process.argv.slice(2);
  // a deployed stage, or the running twin through its loader function (lib/operator/cli-import.ts)
  if (wantsImport(args)) {
    process.exitCode = await runImportCli(args);
    return;
  }
  const help = args.includes('--help') || args.includes('-h');
  const running = !process.env[ENV.databaseUrl] && !help ? runningTwinIfAny() : undefined;
  if (running) {
    console.error(
      `seed: the local twin is running on ${running.twinDir}: load the file through it with ` +
        `\`${forTwin(running.twinDir, 'npm run seed -- --twin --file <seed file>')}\`, or stop it first to load into its folder`,
    );
    process.exitCode = 1;
    return;
  }
  // a running twin owns the folder's S3 (and refuses the embedded database to others): leave both to it
  const wantsStorage = !process.env[ENV.filesBucket] && !runningTwin(process.env[ENV.dataDir]!) && !help;
  const plan = wantsStorage ? (await renderDeployment()).plan : undefined;
  const bucket = plan?.functions.map((f) => f.environment[ENV.filesBucket]).find(Boolean);
  const aws =
    plan && bucket
      ? await startLocalAws({
          dataDir: join(twinDir, 'aws'),
          region: plan.region,
          queues: plan.queues,
          buckets: plan.buckets.map((b) => b.name),
        })
      : undefined;
  if (aws) {
    Object.assign(process.env, {
      [ENV.filesBucket]: bucket,
      AWS_ENDPOINT_URL_S3: aws.endpoint,
      AWS_REGION: plan!.region,
      AWS_ACCESS_KEY_ID: 'twin',
      AWS_SECRET_ACCESS_KEY: 'twin-secret',
    });
    reloadConfig(); // in case rendering the deployment read it before
  }
  try {
    process.exitCode = await runSeedCli(args);
  } finally {
    await aws?.stop();
  }
};

void main();
