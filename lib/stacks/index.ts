/**
 * Renders the service manifest (manifest/service.ts) into CDK stacks. bin/app.ts and the infra tests both
 * call buildApp, so what is tested is what is deployed.
 *
 * Dependencies run one way: web (the SPA's bucket and distribution; it depends on nothing) → data, identity and
 * api (the distribution's domain is the files bucket's and the API's CORS origin, and the passkey relying party); data, identity →
 * workers (queues) → api → schedules → observability (which watches them all); web content (the app's
 * files, and config.json naming the API) last, after web and api.
 */
import { Validations, type App, type Stack } from 'aws-cdk-lib';
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
import { readShared } from './shared-values';
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
  // a custom domain from context wins (the distribution then needs it as an alias: docs/deploy.md, Web app); each
  // stack that needs the distribution's own reads it from the web stack's shared value (shared-values.ts)
  const appOrigin = (consumer: Stack): AppOrigin => {
    if (config.corsOrigin) return originOf(config.corsOrigin);
    if (!web) return originOf(LOCAL_APP_ORIGIN);
    const host = readShared(consumer, web.published.domainName);
    return { url: `https://${host}`, host };
  };
  const data = new DataStack(app, name('data'), { ...common, config, appOrigin });
  const identity = new IdentityStack(app, name('identity'), {
    ...common,
    config,
    appOrigin,
    triggers: functions.filter((fn) => cognitoTriggers(fn).length > 0),
  });
  const shared = { config, data: data.published, identity: identity.published };
  const workers = new WorkersStack(app, name('workers'), { ...common, ...shared, specs: functions.filter(isWorker) });
  const api = new ApiStack(app, name('api'), {
    ...common,
    ...shared,
    appOrigin,
    specs: functions.filter((fn) => !isWorker(fn) && cognitoTriggers(fn).length === 0),
  });
  // the API's functions send to the workers' queues (by name): the queues come first
  api.addStackDependency(workers, 'sends to its queues');
  const built = [...identity.functions, ...workers.functions, ...api.functions];
  const schedules = new SchedulesStack(app, name('schedules'), {
    ...common,
    config,
    targets: built.filter((fn) => scheduleTriggers(fn.spec).length > 0).map((fn) => fn.spec),
  });
  // the scheduled functions are named, not referenced: their stacks come first
  for (const stack of [identity, workers, api]) schedules.addStackDependency(stack, 'schedules its functions');
  const observability = new ObservabilityStack(app, name('observability'), {
    ...common,
    config,
    functions: built.map((fn) => fn.spec),
    api: api.published,
  });
  // it watches them all, by name: it comes last
  for (const stack of [data, identity, workers, api, schedules]) observability.addStackDependency(stack, 'watches it');

  const webContent =
    web &&
    new WebContentStack(app, name('web-content'), {
      ...common,
      config,
      web: web.published,
      apiBaseUrl: api.published.baseUrl,
    });

  if (options.nag !== false) Validations.of(app).addPlugins(new NagChecks(app));
  return { config, data, identity, workers, api, schedules, observability, ...(web && { web }), ...(webContent && { webContent }) };
};
