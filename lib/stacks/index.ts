/**
 * Renders the service manifest (lib/manifest.ts) into CDK stacks. bin/app.ts and the infra tests both
 * call buildApp, so what is tested is what is deployed.
 *
 * Dependencies run one way: data, identity → workers (queues) → api → schedules → observability (which
 * watches them all).
 */
import { Validations, type App } from 'aws-cdk-lib';
import { functions } from '../manifest';
import { stageConfig, type StageConfig } from '../stage-config';
import { ApiStack } from './api-stack';
import { DataStack } from './data-stack';
import { cognitoTriggers, IdentityStack } from './identity-stack';
import { NagChecks } from './nag';
import { ObservabilityStack } from './observability-stack';
import { scheduleTriggers, SchedulesStack } from './schedules-stack';
import { SERVICE_NAME } from './service-function';
import { isWorker, WorkersStack } from './workers-stack';

export interface ServiceApp {
  config: StageConfig;
  data: DataStack;
  identity: IdentityStack;
  workers: WorkersStack;
  api: ApiStack;
  schedules: SchedulesStack;
  observability: ObservabilityStack;
}

export interface BuildOptions {
  /** run cdk-nag at synth (default true; the local twin's synth skips it: it renders, it does not review) */
  nag?: boolean;
}

export const buildApp = (app: App, options: BuildOptions = {}): ServiceApp => {
  const config = stageConfig(app.node);
  const name = (part: string) => `${config.prefix}-${part}`;
  const common = { description: `Investigation Analysis Service (${config.stage})`, tags: { service: SERVICE_NAME, stage: config.stage } };

  const data = new DataStack(app, name('data'), { ...common, config });
  const identity = new IdentityStack(app, name('identity'), {
    ...common,
    config,
    triggers: functions.filter((fn) => cognitoTriggers(fn).length > 0),
  });
  const shared = {
    database: data.database,
    filesBucket: data.filesBucket,
    cronSecret: data.cronSecret,
    webhookSecret: data.webhookSecret,
    identity: identity.identity,
    ai: config.ai,
  };
  const workers = new WorkersStack(app, name('workers'), { ...common, config, resources: shared, specs: functions.filter(isWorker) });
  const api = new ApiStack(app, name('api'), {
    ...common,
    config,
    resources: { ...shared, queues: workers.queues },
    specs: functions.filter((fn) => !isWorker(fn) && cognitoTriggers(fn).length === 0),
  });
  const built = [...identity.functions, ...workers.functions, ...api.functions];
  const schedules = new SchedulesStack(app, name('schedules'), {
    ...common,
    targets: built.filter((fn) => scheduleTriggers(fn.spec).length > 0).map((fn) => ({ spec: fn.spec, fn })),
  });
  const observability = new ObservabilityStack(app, name('observability'), {
    ...common,
    config,
    watched: {
      functions: built.map((fn) => ({ spec: fn.spec, logGroup: fn.logGroup })),
      httpApi: api.api,
      accessLogs: api.accessLogs,
      database: data.instance,
      queues: workers.queues,
      scheduleDeadLetters: schedules.deadLetters,
    },
  });

  if (options.nag !== false) Validations.of(app).addPlugins(new NagChecks(app));
  return { config, data, identity, workers, api, schedules, observability };
};
