/**
 * `npm run preflight -- --stage dev|prod [--region <r>] [-c key=value …] [--twin]`: before a first deploy, checks
 * with read-only AWS calls what the deploy needs and says what is missing (exit code 1 if anything is):
 * - CDK bootstrap in the deploy region (Systems Manager: `/cdk-bootstrap/hnb659fds/version`);
 * - Lambda's concurrency limit there, against the queue workers' maximum concurrency and the API's share;
 * - access to each configured model in both AI regions (Bedrock: the model's availability, and the inference
 *   profile where the model id is one);
 * - for a stage that mails through SES (prod): the sending identity verified in its region, and production access.
 * The stage's settings are the CDK app's (cdk.json's context, its `ias:<stage>` block, `-c` overrides), read as
 * `cdk synth` reads them. `--twin` asks the running local twin's stand-ins instead (lib/twin/aws/account.ts).
 * The operator's credentials need: ssm:GetParameter, lambda:GetAccountSettings, bedrock:GetFoundationModelAvailability,
 * bedrock:GetInferenceProfile, ses:GetEmailIdentity, ses:GetAccount (docs/deploy.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BedrockClient, GetFoundationModelAvailabilityCommand, GetInferenceProfileCommand } from '@aws-sdk/client-bedrock';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { RootConstruct } from 'constructs';
import { InvalidArgumentError } from 'commander';
import { modelIdForRegion, splitProfileId } from '#core/ai/models';
import { cliProgram, type CliIo } from '#core/seed/cli-seed';
import { functions, type QueueTrigger } from '#manifest';
import { PROJECT_ROOT } from '../paths';
import { stageConfig, type StageConfig } from '../stage-config';
import { edgeClientConfig } from '../twin/aws/edge-client';
import { locateTwin } from '../twin/running';

const processIo: CliIo = { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) };

/** What one check found: what it looked at, whether the deploy has it, and what to do if not. */
export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

/**
 * The bootstrap stack version the synthesized assembly requires: the highest its stacks and asset manifests ask for
 * (the stacks' CheckBootstrapVersion rule refuses 1–5; the lookup role's 8 is for context lookups, which the
 * environment-agnostic app makes none of). test/twin/plan.synth.test.ts reads it from a synth.
 */
export const REQUIRED_BOOTSTRAP_VERSION = 6;
/** CDK's default bootstrap qualifier, which the app keeps */
const BOOTSTRAP_PARAMETER = '/cdk-bootstrap/hnb659fds/version';
/** concurrency left for the HTTP routes, the schedules and the operator functions besides the queue workers */
const API_CONCURRENCY = 100;

/** The concurrent executions the stage needs: every queue worker at its maximum, and the API's share. */
export const neededConcurrency = (): number =>
  functions
    .flatMap((fn) => fn.triggers.filter((t): t is QueueTrigger => t.kind === 'queue'))
    .reduce((sum, trigger) => sum + trigger.maxConcurrency, API_CONCURRENCY);

/** AWS clients of one region: AWS itself, or the running twin's edge (an operator's key passes its IAM as an administrator's). */
interface Clients {
  bedrock: (region: string) => BedrockClient;
  lambda: (region: string) => LambdaClient;
  ses: (region: string) => SESv2Client;
  ssm: (region: string) => SSMClient;
}

/** One client of each service per region, made with `config` (the same client for every check in its region). */
const clientsWith = (config: (region: string) => { region: string }): Clients => {
  const perRegion = <T>(make: (c: ReturnType<typeof config>) => T) => {
    const made = new Map<string, T>();
    return (region: string): T => {
      let client = made.get(region);
      if (!client) made.set(region, (client = make(config(region))));
      return client;
    };
  };
  return {
    bedrock: perRegion((c) => new BedrockClient(c)),
    lambda: perRegion((c) => new LambdaClient(c)),
    ses: perRegion((c) => new SESv2Client(c)),
    ssm: perRegion((c) => new SSMClient(c)),
  };
};

const twinClients = (twinDir?: string): { clients: Clients; region: string } => {
  const { twinDir: dir, endpoints } = locateTwin(twinDir === undefined ? {} : { twinDir });
  const edge = { port: endpoints.edgePort, caPem: readFileSync(join(dir, 'tls', 'ca.pem'), 'utf8') };
  return {
    region: endpoints.region,
    clients: clientsWith((region) => edgeClientConfig(edge, region, { accessKeyId: 'twin-operator', secretAccessKey: 'twin-operator' })),
  };
};

/** The stage's settings as `cdk synth` reads them: cdk.json's context, then `-c` overrides (on a bare construct: no app, no cdk.out). */
export const stageSettings = (stage: string, overrides: Readonly<Record<string, string>> = {}): StageConfig => {
  const { context } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  const root = new RootConstruct();
  for (const [key, value] of Object.entries({ ...context, ...overrides, stage })) root.node.setContext(key, value);
  return stageConfig(root.node);
};

const failure = (error: unknown) => `${(error as Error).name}: ${(error as Error).message}`;

const bootstrapCheck = async (clients: Clients, region: string): Promise<CheckResult> => {
  const name = `CDK bootstrap in ${region}`;
  const fix = `npx cdk bootstrap aws://<account>/${region}`;
  try {
    const out = await clients.ssm(region).send(new GetParameterCommand({ Name: BOOTSTRAP_PARAMETER }));
    const version = Number(out.Parameter?.Value);
    return version >= REQUIRED_BOOTSTRAP_VERSION
      ? { name, ok: true, detail: `version ${version}` }
      : { name, ok: false, detail: `version ${out.Parameter?.Value}, the stacks need ${REQUIRED_BOOTSTRAP_VERSION} or later`, fix };
  } catch (error) {
    if ((error as Error).name === 'ParameterNotFound') return { name, ok: false, detail: 'not bootstrapped', fix };
    return { name, ok: false, detail: `could not check: ${failure(error)}` };
  }
};

const concurrencyCheck = async (clients: Clients, region: string): Promise<CheckResult> => {
  const name = `Lambda concurrency in ${region}`;
  const needed = neededConcurrency();
  try {
    const limit = (await clients.lambda(region).send(new GetAccountSettingsCommand({}))).AccountLimit?.ConcurrentExecutions ?? 0;
    return limit >= needed
      ? { name, ok: true, detail: `${limit} concurrent executions, ${needed} needed` }
      : {
          name,
          ok: false,
          detail: `${limit} concurrent executions; the queue workers at their maximum and the API need ${needed}`,
          fix: `ask for at least ${needed} "Concurrent executions" in Service Quotas (Lambda, L-B99A9384) in ${region}`,
        };
  } catch (error) {
    return { name, ok: false, detail: `could not check: ${failure(error)}` };
  }
};

const modelCheck = async (clients: Clients, configured: string, region: string, purposes: string[]): Promise<CheckResult> => {
  const id = modelIdForRegion(configured, region);
  const name = `${purposes.join(' and ')} model ${id} in ${region}`;
  const model = splitProfileId(id)?.model ?? id;
  const bedrock = clients.bedrock(region);
  try {
    if (id !== model) await bedrock.send(new GetInferenceProfileCommand({ inferenceProfileIdentifier: id }));
    const availability = await bedrock.send(new GetFoundationModelAvailabilityCommand({ modelId: model }));
    const missing = [
      availability.authorizationStatus !== 'AUTHORIZED' && 'not authorized',
      availability.entitlementAvailability !== 'AVAILABLE' && 'no entitlement',
      availability.regionAvailability !== 'AVAILABLE' && 'not offered in the region',
      availability.agreementAvailability?.status !== 'AVAILABLE' && `agreement ${availability.agreementAvailability?.status ?? 'missing'}`,
    ].filter((reason): reason is string => reason !== false);
    return missing.length === 0
      ? { name, ok: true, detail: 'available' }
      : {
          name,
          ok: false,
          detail: missing.join(', '),
          fix: `grant access to ${model} in ${region} (Bedrock console → Model access; Anthropic models ask for the use-case form once)`,
        };
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') return { name, ok: false, detail: `could not check: ${failure(error)}` };
    return {
      name,
      ok: false,
      detail: `not found: ${(error as Error).message}`,
      fix: `choose a model offered in ${region} (context aiModel…) or another region (aiPrimaryRegion, aiFallbackRegion)`,
    };
  }
};

const emailChecks = async (clients: Clients, email: NonNullable<StageConfig['email']>): Promise<CheckResult[]> => {
  const identity = email.verifiedDomain ?? email.fromEmail;
  const ses = clients.ses(email.sesRegion);
  const identityCheck = async (): Promise<CheckResult> => {
    const name = `SES identity ${identity} in ${email.sesRegion}`;
    const fix = `verify ${identity} in SES in ${email.sesRegion} (docs/deploy.md)`;
    try {
      const out = await ses.send(new GetEmailIdentityCommand({ EmailIdentity: identity }));
      return out.VerifiedForSendingStatus
        ? { name, ok: true, detail: `verified; the user pool mails from ${email.fromEmail}` }
        : { name, ok: false, detail: `not verified yet (${out.VerificationStatus ?? 'pending'})`, fix };
    } catch (error) {
      if ((error as Error).name === 'NotFoundException') return { name, ok: false, detail: 'no such identity', fix };
      return { name, ok: false, detail: `could not check: ${failure(error)}` };
    }
  };
  const accessCheck = async (): Promise<CheckResult> => {
    const name = `SES production access in ${email.sesRegion}`;
    try {
      return (await ses.send(new GetAccountCommand({}))).ProductionAccessEnabled
        ? { name, ok: true, detail: 'out of the sandbox' }
        : {
            name,
            ok: false,
            detail: 'the account is in the SES sandbox: invitations reach verified addresses only',
            fix: `request production access for SES in ${email.sesRegion}`,
          };
    } catch (error) {
      return { name, ok: false, detail: `could not check: ${failure(error)}` };
    }
  };
  return Promise.all([identityCheck(), accessCheck()]);
};

/** Every check of a stage, in the order printed. */
export const preflightChecks = async (config: StageConfig, clients: Clients, region: string): Promise<CheckResult[]> => {
  const { primaryRegion, fallbackRegion, models } = config.ai;
  // one check per distinct model and region (the judge is usually the analysis model)
  const byModel = new Map<string, string[]>();
  for (const [purpose, id] of Object.entries(models)) byModel.set(id, [...(byModel.get(id) ?? []), purpose]);
  const modelChecks = [...byModel].flatMap(([id, purposes]) =>
    [primaryRegion, fallbackRegion].map((aiRegion) => modelCheck(clients, id, aiRegion, purposes)),
  );
  return (
    await Promise.all([
      bootstrapCheck(clients, region),
      concurrencyCheck(clients, region),
      ...modelChecks,
      ...(config.email ? [emailChecks(clients, config.email)] : []),
    ])
  ).flat();
};

/** Runs the checks; exit code 0 when the deploy has everything, 1 when something is missing or could not be checked. */
export const runPreflightCli = async (argv: string[], io: CliIo = processIo, target?: { twinDir?: string }): Promise<number> => {
  const overrides: Record<string, string> = {};
  const program = cliProgram('preflight', io)
    .description('Check with read-only AWS calls what a first deploy of a stage needs, and say what is missing')
    .requiredOption('--stage <stage>', 'the stage to deploy (dev or prod)')
    .option('--region <region>', 'the region to deploy to (default: the AWS CLI configuration)')
    .option('-c, --context <key=value>', 'a CDK context value, as `cdk deploy -c` takes it (repeatable)', (pair: string) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new InvalidArgumentError(`-c takes key=value, got '${pair}'`);
      overrides[pair.slice(0, at)] = pair.slice(at + 1);
    })
    .option('--twin', "ask the running local twin's stand-ins instead of AWS")
    .option('--json', 'print the results as JSON');
  try {
    program.parse(argv, { from: 'user' });
  } catch (error) {
    return (error as { exitCode?: number }).exitCode === 0 ? 0 : 1;
  }
  const opts = program.opts<{ stage: string; region?: string; twin?: boolean; json?: boolean }>();
  try {
    const config = stageSettings(opts.stage, overrides);
    const where = opts.twin || target ? twinClients(target?.twinDir) : undefined;
    const region = where?.region ?? opts.region ?? (await new SSMClient({}).config.region());
    const results = await preflightChecks(config, where?.clients ?? clientsWith((region) => ({ region })), region);
    if (opts.json) io.out(JSON.stringify(results, null, 2));
    else {
      io.out(`Preflight of stage ${opts.stage} in ${region}${where ? ' (the local twin)' : ''}:`);
      for (const r of results) io.out(`  ${r.ok ? '✓' : '✗'} ${r.name}: ${r.detail}${r.fix ? `\n      → ${r.fix}` : ''}`);
      const missing = results.filter((r) => !r.ok).length;
      io.out(missing === 0 ? 'Ready to deploy.' : `${missing} of ${results.length} checks failed: not ready to deploy.`);
    }
    return results.every((r) => r.ok) ? 0 : 1;
  } catch (error) {
    io.err(`preflight could not run: ${(error as Error).message}`);
    return 1;
  }
};

if (require.main === module)
  void runPreflightCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
