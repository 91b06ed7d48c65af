/**
 * The HTTP API (v2): one function per manifest entry with HTTP triggers, one route per trigger.
 * `investigator` and `admin` routes need a valid Cognito JWT (the handler checks the `admin` group);
 * `public` routes and `cron` routes have no authorizer (a cron handler checks the scheduler's bearer
 * secret or an admin token itself).
 */
import { CfnOutput, Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { CORS, type Access, type FunctionSpec, type HttpTrigger } from '#manifest';
import { rateClassOf } from '#core/ratelimit/limits';
import type { StageConfig } from '../stage-config';
import { apiAccessLogGroupName } from './names';
import { serviceResourcesIn, type PublishedData, type PublishedIdentity } from './published-resources';
import { ServiceFunction } from './service-function';
import { shareValue, type SharedValue } from './shared-values';
import type { AppOrigin } from './web-stack';

/** Which accesses API Gateway authorizes with the JWT authorizer; the rest are open at the gateway. */
const NEEDS_JWT: Record<Access, boolean> = { investigator: true, admin: true, public: false, cron: false };

const OPEN_ROUTE_REASON: Record<Access, string> = {
  public: 'Public by design (health, OpenAPI, sign-in proxies, signed webhook); the handler validates its input and rate-limits.',
  cron: 'Authorized in the handler: the Secrets Manager cron bearer (constant-time compare) or an admin JWT, which a gateway authorizer cannot express as an either-or.',
  investigator: '',
  admin: '',
};

/** API Gateway's token bucket: steady requests per second, and the burst it absorbs above that. */
export interface GatewayThrottle {
  rateLimit: number;
  burstLimit: number;
}

/** The stage's default route settings: what a route without its own (the CORS preflight) gets. */
export const DEFAULT_ROUTE_THROTTLE: GatewayThrottle = { rateLimit: 100, burstLimit: 200 };

/**
 * The gateway's throttle of each route, declared once by route class (the rate limiter's classes,
 * layers/core/ratelimit/limits.ts, with investigator routes split into reads and writes). Each route has
 * its own bucket, shared by all its callers: a ceiling on what reaches the functions and the database,
 * below the handlers' per-user and per-address limits. Sign-in and the other public routes are the
 * tightest — anyone can call them, and each sign-in costs a Cognito call —, writes (which start AI work,
 * write feedback) tighter than reads. docs/deploy.md has the figures' reasoning and the WAF plan.
 */
export const ROUTE_THROTTLES = {
  auth: { rateLimit: 10, burstLimit: 20 },
  public: { rateLimit: 20, burstLimit: 40 },
  cron: { rateLimit: 1, burstLimit: 5 },
  admin: { rateLimit: 10, burstLimit: 20 },
  investigatorWrite: { rateLimit: 25, burstLimit: 50 },
  investigatorRead: { rateLimit: 100, burstLimit: 200 },
} as const satisfies Record<string, GatewayThrottle>;

export const routeThrottle = (trigger: HttpTrigger): GatewayThrottle => {
  const rateClass = rateClassOf(trigger);
  if (rateClass !== 'investigator') return ROUTE_THROTTLES[rateClass];
  return trigger.method === 'GET' ? ROUTE_THROTTLES.investigatorRead : ROUTE_THROTTLES.investigatorWrite;
};

const httpTriggers = (fn: FunctionSpec): HttpTrigger[] => fn.triggers.filter((t): t is HttpTrigger => t.kind === 'http');

export interface ApiStackProps extends StackProps {
  config: StageConfig;
  /** the SPA's origin, the one CORS allows (buildApp: context `corsOrigin`, else the web stack's distribution) */
  appOrigin: (consumer: Stack) => AppOrigin;
  data: PublishedData;
  identity: PublishedIdentity;
  specs: FunctionSpec[];
}

export class ApiStack extends Stack {
  readonly api: apigw.HttpApi;
  readonly functions: ServiceFunction[];
  /** what the observability and web content stacks read: the API's id and the origin the SPA calls (no trailing slash) */
  readonly published: { apiId: SharedValue; baseUrl: SharedValue; endpoint: SharedValue };

  constructor(scope: Construct, id: string, { config, appOrigin, data, identity, specs, ...props }: ApiStackProps) {
    super(scope, id, props);
    const resources = serviceResourcesIn(this, { data, identity, config });
    const methods = [...new Set(specs.flatMap((fn) => httpTriggers(fn).map((t) => t.method)))];
    this.api = new apigw.HttpApi(this, 'HttpApi', {
      apiName: `${config.prefix}-api`,
      description: 'Investigation Analysis Service',
      createDefaultStage: false, // created below, with access logging
      corsPreflight: {
        allowOrigins: [appOrigin(this).url],
        allowMethods: [apigw.CorsHttpMethod.OPTIONS, ...methods.map((m) => apigw.CorsHttpMethod[m])],
        allowHeaders: [...CORS.allowHeaders],
        exposeHeaders: [...CORS.exposeHeaders],
        maxAge: Duration.seconds(CORS.maxAgeSeconds),
      },
    });
    // per-route traffic on the dashboard, which names it (names.ts)
    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      logGroupName: apiAccessLogGroupName(config.prefix),
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });
    const stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      // the default of each route's own bucket; the routes' own are set below (routeThrottle); per-user and
      // per-address rate limiting is the handlers' (WAF cannot attach to HTTP APIs: docs/deploy.md)
      ...(config.gatewayThrottles && { throttle: DEFAULT_ROUTE_THROTTLE }),
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
            authorizerError: '$context.authorizer.error',
            sub: '$context.authorizer.claims.sub',
          }),
        ),
      },
    });

    const { client, issuer } = resources.identity;
    const authorizer = new HttpJwtAuthorizer('CognitoJwt', issuer, { jwtAudience: [client.userPoolClientId] });

    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    const cfnStage = stage.node.defaultChild as apigw.CfnStage;
    this.functions = specs.map((spec) => {
      const fn = new ServiceFunction(this, { spec, resources, config });
      const integration = new HttpLambdaIntegration(`${spec.id}-integration`, fn);
      for (const trigger of httpTriggers(spec)) {
        const routes = this.api.addRoutes({
          path: trigger.path,
          methods: [apigw.HttpMethod[trigger.method]],
          integration,
          ...(NEEDS_JWT[trigger.access] && { authorizer }),
        });
        const { rateLimit, burstLimit } = routeThrottle(trigger);
        routeSettings[`${trigger.method} ${trigger.path}`] = { ThrottlingRateLimit: rateLimit, ThrottlingBurstLimit: burstLimit };
        // a stage's route settings name existing routes: CloudFormation must create them first
        for (const route of routes) cfnStage.node.addDependency(route);
        if (!NEEDS_JWT[trigger.access]) {
          for (const route of routes) {
            for (const rule of ['AwsSolutions-APIG4', 'AwsSolutions-COG4']) {
              Validations.of(route).acknowledge({ id: rule, reason: OPEN_ROUTE_REASON[trigger.access] });
            }
          }
        }
      }
      return fn;
    });
    if (config.gatewayThrottles) cfnStage.routeSettings = routeSettings;

    const share = (key: string, value: string, description: string) => shareValue(this, config.prefix, key, value, description);
    this.published = {
      apiId: share('api/id', this.api.apiId, 'HTTP API id'),
      endpoint: share('api/endpoint', this.api.apiEndpoint, "The HTTP API's execute-api endpoint"),
      baseUrl: share(
        'api/base-url',
        config.apiDomain ? `https://${config.apiDomain.name}` : this.api.apiEndpoint,
        "The origin the SPA calls: the API's own hostname when it has one",
      ),
    };
    new CfnOutput(this, 'ApiUrl', { value: stage.url, description: 'Base URL of the API ({base_url})' });
    if (config.apiDomain) {
      const domain = new apigw.DomainName(this, 'ApiDomain', {
        domainName: config.apiDomain.name,
        certificate: acm.Certificate.fromCertificateArn(this, 'ApiCertificate', config.apiDomain.certificateArn),
        securityPolicy: apigw.SecurityPolicy.TLS_1_2,
      });
      new apigw.ApiMapping(this, 'ApiMapping', { api: this.api, domainName: domain, stage });
      new CfnOutput(this, 'ApiDomainUrl', {
        value: `https://${config.apiDomain.name}/`,
        description: 'Base URL of the API on its own hostname',
      });
      new CfnOutput(this, 'ApiDomainTarget', {
        value: domain.regionalDomainName,
        description: `Point ${config.apiDomain.name} here: a CNAME, or a Route 53 alias in hosted zone ApiDomainZone`,
      });
      new CfnOutput(this, 'ApiDomainZone', {
        value: domain.regionalHostedZoneId,
        description: 'Hosted zone id of the regional target, for a Route 53 alias',
      });
    }
  }
}
