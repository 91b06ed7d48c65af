/**
 * Renders the service manifest (manifest/service.ts) into CDK stacks. bin/app.ts and the infra tests both
 * call buildApp, so what is tested is what is deployed.
 *
 * Dependencies run one way: web (the SPA's bucket and distribution; it depends on nothing) → data, identity and
 * api (the distribution's domain is the files bucket's and the API's CORS origin, and the passkey relying party); data, identity →
 * workers (queues) → api → schedules → observability (which watches them all); web content (the app's
 * files, and config.json naming the API) last, after web and api.
 */
import { Validations, type App } from 'aws-cdk-lib';
import { functions } from '#manifest';
import { stageConfig, type StageConfig } from '../stage-config';
import { ApiStack } from './api-stack';
import { DataStack } from './data-stack';
import { cognitoTriggers, IdentityStack } from './identity-stack';
import { NagChecks } from './nag';
import { ObservabilityStack } from './observability-stack';
import { WebContentStack } from './web-content-stack';
import { WebStack, type AppOrigin } from './web-stack';
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
  /** absent when built with `web: false` (the twin) */
  web?: WebStack;
  webContent?: WebContentStack;
}

/** The SPA's origin of a synth without the web stacks (the twin's default: the Vite dev server). */
const LOCAL_APP_ORIGIN = 'http://localhost:5173';

const originOf = (url: string): AppOrigin => ({ url, host: new URL(url).hostname });

export interface BuildOptions {
  /** run cdk-nag at synth (default true; the local twin's synth skips it: it renders, it does not review) */
  nag?: boolean;
  /**
   * the web app's stacks (default true). The twin's synth leaves them out: it serves the app itself, from
   * the API's origin, and needs no build of it.
   */
  web?: boolean;
}

export const buildApp = (app: App, options: BuildOptions = {}): ServiceApp => {
  const config = stageConfig(app.node);
  const name = (part: string) => `${config.prefix}-${part}`;
  const common = { description: `Investigation Analysis Service (${config.stage})`, tags: { service: SERVICE_NAME, stage: config.stage } };

  // first, depending on nothing: the API and the user pool take the SPA's origin from its distribution
  const web = options.web === false ? undefined : new WebStack(app, name('web'), { ...common, config });
  // a custom domain from context wins (the distribution then needs it as an alias: docs/deploy.md, Web app)
  const appOrigin = config.corsOrigin ? originOf(config.corsOrigin) : (web?.appOrigin ?? originOf(LOCAL_APP_ORIGIN));
  const data = new DataStack(app, name('data'), { ...common, config, appOrigin });
  const identity = new IdentityStack(app, name('identity'), {
    ...common,
    config,
    appOrigin,
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
    appOrigin,
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

  const webContent =
    web &&
    new WebContentStack(app, name('web-content'), {
      ...common,
      config,
      bucket: web.bucket,
      distribution: web.distribution,
      appConfig: { apiBaseUrl: api.baseUrl },
    });

  if (options.nag !== false) Validations.of(app).addPlugins(new NagChecks(app));
  return { config, data, identity, workers, api, schedules, observability, ...(web && { web }), ...(webContent && { webContent }) };
};
