/**
 * CDK assertions over the web app's stacks as buildApp renders them: the private bucket behind
 * CloudFront (OAC), the security headers, the SPA fallback and caching, the wiring of the SPA's origin
 * into the API's CORS and the passkey relying party, and the upload of the build with config.json.
 * Synthesizing needs web/dist (`npm run build:web`).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { buildApp, type ServiceApp } from '../../lib/stacks';
import { WebContentStack } from '../../lib/stacks/web-content-stack';
import { WebStack } from '../../lib/stacks/web-stack';
import { stageConfig } from '../../lib/stage-config';
import { appOutdir, newApp as newCdkApp } from '../support/cdk-app';
import { sharedRef, sharedValueOf } from '../support/synth';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const newApp = (context: Json = {}) => newCdkApp(context, { cloudFormationValidation: false });

/** The CSP of a stage without an API hostname: connect-src allows the region's execute-api hosts, and its S3 buckets' (uploads). */
const CSP = {
  'Fn::Join': [
    '',
    [
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' https://*.execute-api.",
      { Ref: 'AWS::Region' },
      '.',
      { Ref: 'AWS::URLSuffix' },
      ' https://*.s3.',
      { Ref: 'AWS::Region' },
      '.',
      { Ref: 'AWS::URLSuffix' },
      "; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
    ],
  ],
};

describe('the dev app, no corsOrigin: the SPA on the distribution', () => {
  let service: ServiceApp;
  let web: Template;
  let content: Template;
  let templates: Record<string, Json>;
  let assemblyDir: string;
  let distributionId: string;

  beforeAll(() => {
    const app = newApp();
    service = buildApp(app);
    const assembly = app.synth(); // cdk-nag runs here and throws on any unacknowledged finding
    assemblyDir = assembly.directory;
    templates = Object.fromEntries(assembly.stacks.map((stack) => [stack.stackName, stack.template as Json]));
    web = Template.fromStack(service.web!);
    content = Template.fromStack(service.webContent!);
    distributionId = Object.keys(web.findResources('AWS::CloudFront::Distribution'))[0]!;
  });

  test('the web stack comes first and depends on nothing; the API and the user pool depend on it; the content on it and the API', () => {
    expect(service.web!.dependencies).toEqual([]);
    expect(service.api.dependencies).toContain(service.web);
    expect(service.identity.dependencies).toContain(service.web);
    expect(service.webContent!.dependencies).toEqual(expect.arrayContaining([service.web, service.api]));
    expect(service.web!.stackName).toBe('ias-dev-web');
    expect(service.webContent!.stackName).toBe('ias-dev-web-content');
  });

  test('the bucket is private: public access blocked, SSL enforced, S3-managed encryption, destroyed with a dev stack', () => {
    const buckets = Object.entries(web.findResources('AWS::S3::Bucket', { Properties: { LoggingConfiguration: Match.anyValue() } }));
    expect(buckets).toHaveLength(1); // the content bucket (the log bucket logs to no other)
    const [bucketId, bucket] = buckets[0]!;
    expect(bucket).toMatchObject({
      DeletionPolicy: 'Delete',
      Properties: {
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      },
    });
    expect(bucket.Properties.WebsiteConfiguration).toBeUndefined();
    const policy = Object.values(web.findResources('AWS::S3::BucketPolicy', { Properties: { Bucket: { Ref: bucketId } } }))[0]!;
    const statements = policy.Properties.PolicyDocument.Statement as Json[];
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Principal: { AWS: '*' }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    // the only Allow: CloudFront reading objects, for this distribution only (OAC)
    const allows = statements.filter((s) => s.Effect === 'Allow');
    expect(allows).toEqual([
      {
        Effect: 'Allow',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Action: 's3:GetObject',
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/*']] },
        Condition: {
          StringEquals: {
            'AWS:SourceArn': {
              'Fn::Join': [
                '',
                ['arn:', { Ref: 'AWS::Partition' }, ':cloudfront::', { Ref: 'AWS::AccountId' }, ':distribution/', { Ref: distributionId }],
              ],
            },
          },
        },
      },
    ]);
  });

  test('CloudFront reads it through Origin Access Control, HTTPS only, HTTP/2 and 3, index.html at /', () => {
    web.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    web.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: { OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' },
    });
    web.resourceCountIs('AWS::CloudFront::CloudFrontOriginAccessIdentity', 0);
    const config = web.findResources('AWS::CloudFront::Distribution')[distributionId]!.Properties.DistributionConfig as Json;
    expect(config).toMatchObject({ DefaultRootObject: 'index.html', HttpVersion: 'http2and3', Enabled: true });
    expect(config.Origins).toHaveLength(1);
    expect(config.Origins[0]).toMatchObject({
      OriginAccessControlId: { 'Fn::GetAtt': [expect.any(String), 'Id'] },
      S3OriginConfig: { OriginAccessIdentity: '' },
    });
    for (const behavior of [config.DefaultCacheBehavior, ...config.CacheBehaviors])
      expect(behavior).toMatchObject({ ViewerProtocolPolicy: 'redirect-to-https', Compress: true, AllowedMethods: ['GET', 'HEAD'] });
    expect(config.Logging).toMatchObject({ Prefix: 'cloudfront/' });
  });

  test('SPA fallback: a 403 or 404 from S3 answers /index.html with 200', () => {
    const config = web.findResources('AWS::CloudFront::Distribution')[distributionId]!.Properties.DistributionConfig as Json;
    expect(config.CustomErrorResponses).toEqual(
      [403, 404].map((code) => ({ ErrorCode: code, ResponseCode: 200, ResponsePagePath: '/index.html', ErrorCachingMinTTL: 0 })),
    );
  });

  test('security headers on every response', () => {
    const policyId = Object.keys(web.findResources('AWS::CloudFront::ResponseHeadersPolicy'))[0]!;
    const headers = web.findResources('AWS::CloudFront::ResponseHeadersPolicy')[policyId]!.Properties.ResponseHeadersPolicyConfig
      .SecurityHeadersConfig as Json;
    expect(headers).toEqual({
      StrictTransportSecurity: { AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Override: true },
      ContentSecurityPolicy: { ContentSecurityPolicy: CSP, Override: true },
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true },
    });
    const config = web.findResources('AWS::CloudFront::Distribution')[distributionId]!.Properties.DistributionConfig as Json;
    for (const behavior of [config.DefaultCacheBehavior, ...config.CacheBehaviors])
      expect(behavior.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
  });

  test('caching: /assets/* for a year, index.html and config.json revalidated; the objects carry the same Cache-Control', () => {
    const config = web.findResources('AWS::CloudFront::Distribution')[distributionId]!.Properties.DistributionConfig as Json;
    const policies = web.findResources('AWS::CloudFront::CachePolicy');
    const ttls = (ref: Json) => {
      const { MinTTL, DefaultTTL, MaxTTL } = policies[ref.Ref as string]!.Properties.CachePolicyConfig as Json;
      return { MinTTL, DefaultTTL, MaxTTL };
    };
    expect(config.CacheBehaviors).toHaveLength(1);
    expect(config.CacheBehaviors[0].PathPattern).toBe('/assets/*');
    expect(ttls(config.CacheBehaviors[0].CachePolicyId)).toEqual({ MinTTL: 31536000, DefaultTTL: 31536000, MaxTTL: 31536000 });
    expect(ttls(config.DefaultCacheBehavior.CachePolicyId)).toMatchObject({ MinTTL: 0, DefaultTTL: 0 });
    content.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketKeyPrefix: 'assets/',
      SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
      Prune: false,
    });
    content.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketKeyPrefix: Match.absent(),
      SystemMetadata: { 'cache-control': 'no-cache' },
      Prune: false,
    });
  });

  test("the API's CORS origin and the passkey relying party are the distribution's domain", () => {
    const api = Template.fromStack(service.api);
    const [origin] = Object.values(api.findResources('AWS::ApiGatewayV2::Api'))[0]!.Properties.CorsConfiguration.AllowOrigins as Json[];
    const [prefix, domain] = origin!['Fn::Join'][1] as [string, Json];
    expect(prefix).toBe('https://');
    // each read from the web stack's shared value, which is the distribution's domain
    expect(sharedValueOf(templates, api.toJSON(), domain)).toEqual({ 'Fn::GetAtt': [distributionId, 'DomainName'] });
    const identity = Template.fromStack(service.identity);
    const pool = Object.values(identity.findResources('AWS::Cognito::UserPool'))[0]!;
    expect(sharedValueOf(templates, identity.toJSON(), pool.Properties.WebAuthnRelyingPartyID)).toEqual({
      'Fn::GetAtt': [distributionId, 'DomainName'],
    });
  });

  test("the content: the build, then index.html with config.json naming the API's URL, the distribution invalidated", () => {
    const deployments = content.findResources('Custom::CDKBucketDeployment');
    const [assets, documents] = ['Assets', 'Documents'].map(
      (id) => Object.entries(deployments).find(([logicalId]) => logicalId.startsWith(id))!,
    );
    expect(documents![1].DependsOn).toContain(assets![0]); // the new assets are in place before an index.html names them
    const props = documents![1].Properties as Json;
    expect(sharedValueOf(templates, content.toJSON(), props.DestinationBucketName)).toEqual({ Ref: expect.stringMatching(/^Content/) });
    expect(sharedValueOf(templates, content.toJSON(), props.DistributionId)).toEqual({ Ref: distributionId });
    expect(props.DistributionPaths).toEqual(['/index.html', '/config.json']);
    // config.json: its source's text, with the API's endpoint filled in at deploy time (a marker)
    const configSource = (props.SourceObjectKeys as string[]).findIndex((key) => {
      try {
        readFileSync(join(assemblyDir, `asset.${key.replace(/\.zip$/, '')}`, 'config.json'));
        return true;
      } catch {
        return false;
      }
    });
    expect(configSource).toBeGreaterThanOrEqual(0);
    const configText = readFileSync(
      join(assemblyDir, `asset.${(props.SourceObjectKeys[configSource] as string).replace(/\.zip$/, '')}`, 'config.json'),
      'utf8',
    );
    const markers = props.SourceMarkers[configSource] as Record<string, Json>;
    expect(Object.keys(markers)).toHaveLength(1);
    const [marker, value] = Object.entries(markers)[0]!;
    expect(JSON.parse(configText)).toEqual({ apiBaseUrl: marker });
    const apiId = Object.keys(Template.fromStack(service.api).findResources('AWS::ApiGatewayV2::Api'))[0]!;
    expect(sharedValueOf(templates, content.toJSON(), value)).toEqual({ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] });
    // the build's own files, assets/ excepted (the other upload's)
    const buildSource = (props.SourceObjectKeys as string[]).find((_, i) => i !== configSource)!;
    expect(readFileSync(join(assemblyDir, `asset.${buildSource.replace(/\.zip$/, '')}`, 'index.html'), 'utf8')).toContain('<');
    expect(() => readFileSync(join(assemblyDir, `asset.${buildSource.replace(/\.zip$/, '')}`, 'assets', 'app.js'))).toThrow();
  });
});

describe('a custom domain from corsOrigin', () => {
  test('the API allows exactly that origin and the passkey relying party is its host', () => {
    const app = newApp({
      corsOrigin: 'https://app.example.com',
      apiDomainName: 'api.example.com',
      apiCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f3e1c2a-4b5d-4e6f-8a9b-0c1d2e3f4a5b',
    });
    const service = buildApp(app, { nag: false });
    Template.fromStack(service.api).hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.objectLike({ AllowOrigins: ['https://app.example.com'] }),
    });
    Template.fromStack(service.identity).hasResourceProperties('AWS::Cognito::UserPool', { WebAuthnRelyingPartyID: 'app.example.com' });
    expect(service.api.dependencies).not.toContain(service.web);
    // with the API on its own hostname, the SPA calls exactly it: config.json and connect-src name it
    Template.fromStack(service.web!).hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: {
        SecurityHeadersConfig: Match.objectLike({
          ContentSecurityPolicy: {
            // and the region's S3 buckets (uploads by presigned URL): the region is the stack's, so the value is joined
            ContentSecurityPolicy: {
              'Fn::Join': [
                '',
                Match.arrayWith([Match.stringLikeRegexp("connect-src 'self' https://api\\.example\\.com https://\\*\\.s3\\.$")]),
              ],
            },
            Override: true,
          },
        }),
      },
    });
    Template.fromStack(service.api).hasResourceProperties('AWS::SSM::Parameter', {
      Name: `/${service.config.prefix}/shared/api/base-url`,
      Value: 'https://api.example.com',
    });
  });
});

describe('the prod stage without corsOrigin', () => {
  test('serves the SPA from the distribution, retaining its buckets', () => {
    const service = buildApp(
      newApp({ stage: 'prod', alarmEmails: 'oncall@example.com', sesFromEmail: 'no-reply@example.com', sesRegion: 'us-east-1' }),
      { nag: false },
    );
    const web = Template.fromStack(service.web!);
    for (const bucket of Object.values(web.findResources('AWS::S3::Bucket'))) expect(bucket.DeletionPolicy).toBe('Retain');
    const api = Template.fromStack(service.api);
    api.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.objectLike({
        AllowOrigins: [{ 'Fn::Join': ['', ['https://', sharedRef(api.toJSON(), '/ias-prod/shared/web/domain-name')]] }],
      }),
    });
    Template.fromStack(service.webContent!).hasResourceProperties('Custom::CDKBucketDeployment', { RetainOnDelete: true });
  });
});

describe('without the web stacks (the twin)', () => {
  test('no web stack, and the SPA origin is the local one', () => {
    const app = newApp();
    const service = buildApp(app, { nag: false, web: false });
    expect(service.web).toBeUndefined();
    expect(service.webContent).toBeUndefined();
    expect(app.node.children.map((child) => child.node.id)).not.toContain('ias-dev-web');
    Template.fromStack(service.api).hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.objectLike({ AllowOrigins: ['http://localhost:5173'] }),
    });
  });
});

describe('the build', () => {
  test('missing at synth: an error naming the command that makes it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ias-web-dist-'));
    try {
      const app = new App({ outdir: appOutdir() });
      const web = new WebStack(app, 'Web', { config: stageConfig(app.node) });
      expect(
        () =>
          new WebContentStack(app, 'Content', {
            config: stageConfig(app.node),
            web: web.published,
            apiBaseUrl: { producer: web, parameterName: '/ias-dev/shared/api/base-url' },
            dist: dir,
          }),
      ).toThrow(/the web app is not built \(no .*index\.html, .*assets\): run `npm run build:web`/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
