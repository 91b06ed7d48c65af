/**
 * The functions and what invokes them besides the API: the Lambda runtime (each function in its own execution
 * environments, its AWS host names routed to the edge and the database proxy's to the proxy where it is in the
 * VPC), the event source mappings (SQS pollers with the function's role) and EventBridge Scheduler's schedules.
 */
import { randomUUID } from 'node:crypto';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { TwinPlan } from '../assembly/plan';
import { edgeClientConfig, type EdgeAddress } from '../aws/edge-client';
import type { Credentials, DeploymentIam } from '../iam/decisions';
import type { Stops } from '../stops';
import {
  DEFAULT_MAX_ENVIRONMENTS,
  deniedInvocation,
  startLambdaRuntime,
  type InvokeOutcome,
  type LambdaRuntime,
  type LogLine,
  type NetworkRoute,
} from './lambda';
import { startPoller } from './pollers';
import { startSchedule, type ScheduleRun } from './schedules';

/** the AWS host names of a function's environment, all led to the edge */
const AWS_HOSTS = [
  'sqs.*.amazonaws.com',
  '*.s3.*.amazonaws.com',
  's3.*.amazonaws.com',
  '*.s3.amazonaws.com',
  'bedrock-runtime.*.amazonaws.com',
  'cognito-idp.*.amazonaws.com',
  'secretsmanager.*.amazonaws.com',
];

/** CloudWatch Logs of the twin: the latest lines kept, every line told to the twin's log */
const MAX_LOG_LINES = 20_000;

export const startFunctions = (
  stops: Stops,
  options: {
    plan: TwinPlan;
    bundlesDir: string;
    bootstrapPath: string;
    edge: EdgeAddress;
    proxyPort: number;
    credentials: ReadonlyMap<string, Credentials>;
    log: (line: string) => void;
  },
) => {
  const { plan, edge } = options;
  const toEdge = { host: '127.0.0.1', port: edge.port };
  const awsRoutes: NetworkRoute[] = AWS_HOSTS.map((host) => ({ host, to: toEdge }));
  const logs: LogLine[] = [];
  const runtime = startLambdaRuntime(plan.functions, {
    bundlesDir: options.bundlesDir,
    bootstrapPath: options.bootstrapPath,
    caPem: edge.caPem,
    region: plan.region,
    credentials: (fn) => options.credentials.get(fn.id)!,
    // a queue's workers run as many at once as their mapping lets Lambda run them (the analysis workers, sized for
    // the model quota: manifest/ai-capacity.ts)
    maxEnvironments: (fn) =>
      Math.max(DEFAULT_MAX_ENVIRONMENTS, ...plan.eventSources.filter((e) => e.functionId === fn.id).map((e) => e.maxConcurrency ?? 0)),
    // the proxy sits in the VPC's isolated subnets: only functions placed in the VPC reach it
    routes: (fn) => [
      ...awsRoutes,
      { host: plan.database.proxyEndpoint, to: fn.inVpc ? { host: '127.0.0.1', port: options.proxyPort } : 'blackhole' },
    ],
    onLog: (line) => {
      logs.push(line);
      if (logs.length > MAX_LOG_LINES) logs.splice(0, MAX_LOG_LINES / 4);
      for (const text of line.text.split('\n').filter(Boolean)) options.log(`[${line.functionId}] ${text}`);
    },
  });
  stops.add(() => runtime.stop());
  return { runtime, logs };
};

/** The event source mappings and (unless `schedules` is false) the schedules, running. */
export const startEventSources = (
  stops: Stops,
  options: {
    plan: TwinPlan;
    edge: EdgeAddress;
    credentials: ReadonlyMap<string, Credentials>;
    iam: DeploymentIam;
    invoke: LambdaRuntime['invoke'];
    schedules: boolean;
    log: (line: string) => void;
  },
) => {
  const { plan, invoke, iam, log } = options;
  const pollers = plan.eventSources.map((mapping) => {
    const queue = plan.queues.find((q) => q.arn === mapping.queueArn);
    if (!queue) throw new Error(`event source of ${mapping.functionId}: no queue ${mapping.queueArn}`);
    const sqs = new SQSClient(edgeClientConfig(options.edge, plan.region, options.credentials.get(mapping.functionId)!));
    stops.add(() => sqs.destroy());
    return startPoller({
      sqs,
      mapping,
      queueUrl: queue.url,
      region: plan.region,
      invoke: (event) => invoke(mapping.functionId, event),
      log,
    });
  });
  stops.add(async () => {
    await Promise.all(pollers.map((p) => p.stop()));
  });
  const runs: ScheduleRun[] = [];
  /**
   * A failed asynchronous invocation's record, sent as Lambda sends it to the function's failure destination: with the
   * function's execution role, so its grants and the queue's policy decide (a refusal is logged, as Lambda counts it
   * in DestinationDeliveryFailures). The twin makes none of Lambda's asynchronous retries: the scheduled functions are
   * deployed with none (schedules-stack.ts).
   */
  const sendFailure = async (target: TwinPlan['functions'][number], event: unknown, outcome: InvokeOutcome & { ok: false }) => {
    const destination = plan.queues.find((q) => q.arn === target.asyncInvoke.onFailure);
    if (!destination) return;
    const record = {
      version: '1.0',
      timestamp: new Date().toISOString(),
      requestContext: {
        requestId: randomUUID(),
        functionArn: `${target.arn}:$LATEST`,
        condition: 'RetriesExhausted',
        approximateInvokeCount: 1, // the one attempt the twin made (it makes no asynchronous retry)
      },
      requestPayload: event,
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      responsePayload: { errorType: outcome.error.errorType, errorMessage: outcome.error.errorMessage },
    };
    const sqs = new SQSClient(edgeClientConfig(options.edge, plan.region, options.credentials.get(target.id)!));
    try {
      await sqs.send(new SendMessageCommand({ QueueUrl: destination.url, MessageBody: JSON.stringify(record) }));
    } catch (error) {
      log(`${target.id}: its failure was not delivered to ${destination.arn}: ${(error as Error).name}: ${(error as Error).message}`);
    } finally {
      sqs.destroy();
    }
  };
  const scheduled = (schedule: TwinPlan['schedules'][number]) => async (event: unknown) => {
    const target = plan.functions.find((f) => f.id === schedule.functionId)!;
    if (!iam.scheduleMayInvoke(schedule, target)) return deniedInvocation(`${schedule.roleArn} may not invoke ${target.arn}`);
    const outcome = await invoke(schedule.functionId, event);
    if (!outcome.ok) await sendFailure(target, event, outcome);
    return outcome;
  };
  const schedules = options.schedules
    ? plan.schedules.map((schedule) => startSchedule(schedule, scheduled(schedule), (run) => runs.push(run), log))
    : [];
  for (const schedule of schedules) stops.add(() => schedule.stop());
  return {
    scheduleRuns: () => [...runs],
    /** resolves when the schedules' start-up runs (and any run in progress) have finished */
    schedulesSettled: async () => {
      await Promise.all(schedules.map((s) => s.settled()));
    },
  };
};
