/**
 * `npm start`: the local twin in the foreground. Ctrl-C stops everything cleanly.
 * Configuration (all optional): PORT (3000), TWIN_DIR (.twin), DATABASE_URL (embedded PGlite when
 * unset), TWIN_SCHEDULES=off, TWIN_LOG=quiet, CORS_ORIGIN, STANDIN_FAULTS (see bedrock-standin.ts),
 * CRON_SECRET and WEBHOOK_SECRET (the secrets' values, put into the twin's Secrets Manager at start).
 * A twin on a folder other than the default leaves a pointer to it there, so the operator tools find it (./running.ts).
 */
import './compile-cache'; // first: the modules below load from the code cache
import { pointToTwin, twinCommands } from '../running';
import { startTwin, type TwinOptions } from '../twin';

/** CRON_SECRET and WEBHOOK_SECRET (empty is unset) as the values the twin puts into its Secrets Manager. */
export const secretValuesFromEnv = (env: NodeJS.ProcessEnv): NonNullable<TwinOptions['secretValues']> => {
  // the cron secret is sent as `Authorization: Bearer <secret>`, which ends at whitespace: such a value could never match
  if (/\s/.test(env.CRON_SECRET ?? ''))
    throw new Error('CRON_SECRET must not contain whitespace (it is sent as `Authorization: Bearer <secret>`)');
  return { ...(env.CRON_SECRET && { cron: env.CRON_SECRET }), ...(env.WEBHOOK_SECRET && { webhook: env.WEBHOOK_SECRET }) };
};

const main = async () => {
  const started = performance.now();
  const quiet = process.env.TWIN_LOG === 'quiet';
  const twin = await startTwin({
    port: Number(process.env.PORT ?? 3000),
    ...(process.env.DATABASE_URL && { databaseUrl: process.env.DATABASE_URL }),
    schedules: process.env.TWIN_SCHEDULES !== 'off',
    secretValues: secretValuesFromEnv(process.env),
    log: (line) => {
      if (!quiet) console.log(`[twin] ${line}`);
    },
  });
  const removePointer = pointToTwin(twin.twinDir);
  const commands = twinCommands(twin);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  console.log(`
Investigation Analysis Service — local twin ready in ${seconds} s
  Base URL        ${twin.url}
  Twin folder     ${twin.twinDir}   (TWIN_DIR; the commands below find this twin)
  Health          curl ${twin.url}/api/health
  Database        ${twin.database.engine === 'pglite' ? `embedded PGlite in ${twin.twinDir}/pgdata` : 'PostgreSQL (DATABASE_URL)'}${twin.seeded ? ' — demo investigation seeded' : ''}
  Functions       ${twin.plan.functions.length}, each in its own isolate with its template environment (logs above)
  AWS edge        127.0.0.1:${twin.aws.edge.port} — every function's AWS call, IAM-checked against its synthesized policy (CA: ${twin.twinDir}/tls/ca.pem)
  S3 (public)     ${twin.aws.publicS3}/<bucket>/<key>?X-Amz-… — the presigned URLs in the API's answers lead here (signature, expiry, IAM, CORS checked)
  SQS + S3        ${twin.aws.endpoint} (fauxqs, operator access)
  Bedrock         ${twin.bedrock.url} (deterministic stand-in; faults: PUT ${twin.bedrock.url}/_standin/faults/<region>)
  Tokens          ${commands.token}   (or --role admin)
  Seed            ${commands.seed}
  Eval            ${commands.eval}
  Cron secret     ${twin.cronSecret}   (CRON_SECRET=… npm start sets it)
  Webhook secret  ${twin.webhookSecret}   (signs POST /api/webhooks/payment; WEBHOOK_SECRET=… npm start sets it)
  Docs recipes    ${commands.recipes}   (in the shell you run them from)
Ctrl-C stops.`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the twin…`);
    removePointer();
    twin.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
};

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`The twin could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
