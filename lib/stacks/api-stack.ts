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
import { CORS, type Access, type FunctionSpec, type HttpTrigger } from '../manifest';
import type { StageConfig } from '../stage-config';
import { ServiceFunction } from './service-function';
import type { ServiceResources } from './service-resources';

/** Which accesses API Gateway authorizes with the JWT authorizer; the rest are open at the gateway. */
export const NEEDS_JWT: Record<Access, boolean> = { investigator: true, admin: true, public: false, cron: false };

const OPEN_ROUTE_REASON: Record<Access, string> = {
  public: 'Public by design (health, OpenAPI, sign-in proxies, signed webhook); the handler validates its input and rate-limits.',
  cron: 'Authorized in the handler: the Secrets Manager cron bearer (constant-time compare) or an admin JWT, which a gateway authorizer cannot express as an either-or.',
  investigator: '',
  admin: '',
};

export const httpTriggers = (fn: FunctionSpec): HttpTrigger[] => fn.triggers.filter((t): t is HttpTrigger => t.kind === 'http');

export interface ApiStackProps extends StackProps {
  config: StageConfig;
  resources: ServiceResources;
  specs: FunctionSpec[];
}

export class ApiStack extends Stack {
  readonly api: apigw.HttpApi;
  /** the HTTP API's access log (per-route traffic on the dashboard) */
  readonly accessLogs: logs.LogGroup;
  readonly functions: ServiceFunction[];

  constructor(scope: Construct, id: string, { config, resources, specs, ...props }: ApiStackProps) {
    super(scope, id, props);
    const methods = [...new Set(specs.flatMap((fn) => httpTriggers(fn).map((t) => t.method)))];
    this.api = new apigw.HttpApi(this, 'HttpApi', {
      apiName: `${config.prefix}-api`,
      description: 'Investigation Analysis Service',
      createDefaultStage: false, // created below, with access logging
      corsPreflight: {
        allowOrigins: [config.corsOrigin],
        allowMethods: [apigw.CorsHttpMethod.OPTIONS, ...methods.map((m) => apigw.CorsHttpMethod[m])],
        allowHeaders: [...CORS.allowHeaders],
        exposeHeaders: [...CORS.exposeHeaders],
        maxAge: Duration.seconds(CORS.maxAgeSeconds),
      },
    });
    const accessLogs = this.accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: config.logRetention, removalPolicy: config.removalPolicy });
    const stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      // a ceiling for the whole API; per-user rate limiting is the handlers' (WAF cannot attach to HTTP APIs)
      throttle: { rateLimit: 100, burstLimit: 200 },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify({
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
        })),
      },
    });

    const { client, issuer } = resources.identity;
    const authorizer = new HttpJwtAuthorizer('CognitoJwt', issuer, { jwtAudience: [client.userPoolClientId] });

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

    new CfnOutput(this, 'ApiUrl', { value: stage.url, description: 'Base URL of the API ({base_url})' });
    if (config.apiDomain) {
      const domain = new apigw.DomainName(this, 'ApiDomain', {
        domainName: config.apiDomain.name,
        certificate: acm.Certificate.fromCertificateArn(this, 'ApiCertificate', config.apiDomain.certificateArn),
        securityPolicy: apigw.SecurityPolicy.TLS_1_2,
      });
      new apigw.ApiMapping(this, 'ApiMapping', { api: this.api, domainName: domain, stage });
      new CfnOutput(this, 'ApiDomainUrl', { value: `https://${config.apiDomain.name}/`, description: 'Base URL of the API on its own hostname' });
      new CfnOutput(this, 'ApiDomainTarget', {
        value: domain.regionalDomainName,
        description: `Point ${config.apiDomain.name} here: a CNAME, or a Route 53 alias in hosted zone ApiDomainZone`,
      });
      new CfnOutput(this, 'ApiDomainZone', { value: domain.regionalHostedZoneId, description: 'Hosted zone id of the regional target, for a Route 53 alias' });
    }
  }
}
