/**
 * The reference web app's hosting: a private S3 bucket served by CloudFront through Origin Access
 * Control. The stack depends on nothing, so it comes first: the API's CORS origin and Cognito's passkey
 * relying party are the distribution's domain (buildApp), and the content — which needs the API's URL —
 * is uploaded by ./web-content-stack.ts, after the API.
 *
 * Caching follows the build: `index.html` (and `config.json`) carry `Cache-Control: no-cache`, so a
 * deploy shows at the next load; `/assets/*` are content-hashed file names, cached a year (immutable).
 * A 403/404 from S3 (OAC without ListBucket answers 403 for a missing key) answers `/index.html` with
 * 200, so the SPA's own routes load on a reload or a deep link.
 */
import { Aws, Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { contentSecurityPolicy, WEB_SECURITY } from '../web-security';
import type { StageConfig } from '../stage-config';
import { shareValue, type SharedValue } from './shared-values';

/** The SPA's origin as the API (CORS) and Cognito (passkey relying party id: the host) need it. */
export interface AppOrigin {
  /** `https://host` */
  url: string;
  host: string;
}

/** The origin the SPA may call besides its own: the API's hostname when it has one, else any HTTP API of the region (its id is not known here, see below). */
const apiOrigin = (config: StageConfig): string =>
  config.apiDomain ? `https://${config.apiDomain.name}` : `https://*.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`;

/**
 * Where the browser uploads files: presigned URLs name the files bucket's virtual-hosted address in the stage's region.
 * The data stack's bucket CORS names the app's origin, so its generated name cannot be named here without a cycle.
 */
const filesOrigin = (): string => `https://*.s3.${Aws.REGION}.${Aws.URL_SUFFIX}`;

export interface WebStackProps extends StackProps {
  config: StageConfig;
}

export class WebStack extends Stack {
  /** the app's files: index.html, config.json, assets/ (private; CloudFront reads it through OAC) */
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  /** what the API, data, identity and web content stacks read (shared-values.ts) */
  readonly published: { domainName: SharedValue; bucketName: SharedValue; bucketArn: SharedValue; distributionId: SharedValue };

  constructor(scope: Construct, id: string, { config, ...props }: WebStackProps) {
    super(scope, id, props);
    const ack = (construct: Construct, rule: string, reason: string) => Validations.of(construct).acknowledge({ id: rule, reason });
    const bucketDefaults = {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      removalPolicy: config.removalPolicy,
    } satisfies s3.BucketProps;

    // CloudFront's standard logs are written with ACLs: the one bucket in the app that keeps them enabled
    const logs = new s3.Bucket(this, 'AccessLogs', {
      ...bucketDefaults,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(365) }],
    });
    ack(logs, 'AwsSolutions-S1', 'This bucket is the access log destination; logging it would only move the finding to another bucket.');
    this.bucket = new s3.Bucket(this, 'Content', {
      ...bucketDefaults,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 'content/',
    });

    // CloudFront policy names are unique per account, not per region: the region keeps two regions' stages apart
    const policyName = (part: string) => `${config.prefix}-${Aws.REGION}-web-${part}`;
    const headers = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      responseHeadersPolicyName: policyName('security-headers'),
      comment: 'Security headers of the web app',
      securityHeadersBehavior: {
        strictTransportSecurity: {
          accessControlMaxAge: Duration.seconds(WEB_SECURITY.hstsSeconds),
          includeSubdomains: true,
          override: true,
        },
        // the values the twin serves the app with too (lib/web-security.ts); connect-src names the API's origin: the API
        // stack depends on this one (CORS), so its generated id cannot be named here without a cycle (apiOrigin); and the
        // files bucket's, for uploads by presigned URL (filesOrigin)
        contentSecurityPolicy: { contentSecurityPolicy: contentSecurityPolicy([apiOrigin(config), filesOrigin()]), override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
      },
    });
    const compressed = { enableAcceptEncodingGzip: true, enableAcceptEncodingBrotli: true };
    // index.html, config.json: the objects' `no-cache` is honoured (minimum TTL 0), so the edge revalidates each request
    const documents = new cloudfront.CachePolicy(this, 'DocumentsCache', {
      cachePolicyName: policyName('documents'),
      comment: 'index.html and config.json: revalidated on every request',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.days(365),
      ...compressed,
    });
    const assets = new cloudfront.CachePolicy(this, 'AssetsCache', {
      cachePolicyName: policyName('assets'),
      comment: 'Content-hashed assets: a year',
      minTtl: Duration.days(365),
      defaultTtl: Duration.days(365),
      maxTtl: Duration.days(365),
      ...compressed,
    });
    const origin = S3BucketOrigin.withOriginAccessControl(this.bucket);
    const behavior = {
      origin,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
      compress: true,
      responseHeadersPolicy: headers,
    };
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `${config.prefix} web app`,
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      defaultBehavior: { ...behavior, cachePolicy: documents },
      additionalBehaviors: { '/assets/*': { ...behavior, cachePolicy: assets } },
      // the SPA's own routes (a reload, a deep link) are not objects: S3 answers 403 (no ListBucket) or 404
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 200,
        responsePagePath: '/index.html',
        ttl: Duration.seconds(0),
      })),
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: 'cloudfront/',
    });
    const share = (key: string, value: string, description: string) => shareValue(this, config.prefix, key, value, description);
    this.published = {
      domainName: share('web/domain-name', this.distribution.distributionDomainName, "The app's distribution domain (its origin)"),
      bucketName: share('web/bucket-name', this.bucket.bucketName, "The app's content bucket name"),
      bucketArn: share('web/bucket-arn', this.bucket.bucketArn, "The app's content bucket ARN"),
      distributionId: share('web/distribution-id', this.distribution.distributionId, "The app's distribution id"),
    };

    ack(
      this.distribution,
      'AwsSolutions-CFR4',
      "No custom domain here: the *.cloudfront.net name is served with CloudFront's default certificate, whose security policy is fixed at TLSv1 (CDK ignores minimumProtocolVersion without a certificate). With a custom domain, attach its ACM certificate with TLSv1.2_2021 (docs/deploy.md, Web app). Browsers negotiate TLS 1.2/1.3 anyway.",
    );
    ack(
      this.distribution,
      'AwsSolutions-CFR1',
      'The service has no country restriction: who may use the app is decided by sign-in (Cognito), not by where a request comes from.',
    );
    ack(
      this.distribution,
      'AwsSolutions-CFR2',
      "It serves only static files (the built app and config.json), which need no WAF rule; CloudFront's Shield Standard covers volumetric attacks. The API it calls is a separate origin with its own throttles (an HTTP API, which WAF cannot attach to: docs/deploy.md).",
    );
  }
}
