/**
 * The web app's files, uploaded into the web stack's bucket after the API exists: the production build
 * (`web/dist`, made by `npm run build:web`) and `config.json`, `{ "apiBaseUrl": "https://…" }`, which the
 * app fetches at start to find the API (the twin serves the app and the API from one origin instead).
 * Its own stack because it needs both the web stack (bucket, distribution) and the API stack (URL),
 * while the API needs the web stack's domain for CORS.
 *
 * Two uploads: the hashed assets first, then index.html and config.json, so a new index.html never names
 * an asset not yet there. Neither prunes: a tab opened before a deploy still loads its own chunks.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { PROJECT_ROOT, WEB_DIST } from '../paths';
import type { StageConfig } from '../stage-config';
import { acknowledgeMatching } from './nag';
import { notShared, readShared, type SharedValue } from './shared-values';
import type { WebStack } from './web-stack';
import { CACHE_CONTROL } from '../web-security';

/** What the app reads from /config.json. */
interface WebAppConfig {
  /** the API's origin, no trailing slash: the app calls `${apiBaseUrl}/api/…` */
  apiBaseUrl: string;
}

export interface WebContentStackProps extends StackProps {
  config: StageConfig;
  /** the web stack's bucket and distribution */
  web: WebStack['published'];
  /** the API's origin (config.json's apiBaseUrl) */
  apiBaseUrl: SharedValue;
  /** the production build (default web/dist) */
  dist?: string;
}

/** The build must exist at synth: the error names the command that makes it. */
const builtApp = (dist: string): { dist: string; assets: string } => {
  const assets = join(dist, 'assets');
  const missing = [join(dist, 'index.html'), assets].filter((path) => !existsSync(path));
  if (missing.length > 0) {
    throw new Error(
      `the web app is not built (no ${missing.map((path) => relative(PROJECT_ROOT, path)).join(', ')}): run \`npm run build:web\` before synthesizing`,
    );
  }
  return { dist, assets };
};

export class WebContentStack extends Stack {
  constructor(scope: Construct, id: string, { config, web, apiBaseUrl, dist = WEB_DIST, ...props }: WebContentStackProps) {
    super(scope, id, props);
    const read = (value: SharedValue) => readShared(this, value);
    const bucket = s3.Bucket.fromBucketAttributes(this, 'Content', { bucketName: read(web.bucketName), bucketArn: read(web.bucketArn) });
    const distribution = cloudfront.Distribution.fromDistributionAttributes(this, 'Distribution', {
      distributionId: read(web.distributionId),
      domainName: notShared("The distribution's domain name"),
    });
    const appConfig: WebAppConfig = { apiBaseUrl: read(apiBaseUrl) };
    const built = builtApp(dist);
    const common = {
      destinationBucket: bucket,
      prune: false,
      // dev: deleting the stack empties what it uploaded, so the web stack's bucket can go too
      retainOnDelete: config.removalPolicy !== RemovalPolicy.DESTROY,
    };
    const assets = new s3deploy.BucketDeployment(this, 'Assets', {
      ...common,
      sources: [s3deploy.Source.asset(built.assets)],
      destinationKeyPrefix: 'assets/',
      cacheControl: [s3deploy.CacheControl.fromString(CACHE_CONTROL.assets)],
    });
    const documents = new s3deploy.BucketDeployment(this, 'Documents', {
      ...common,
      sources: [
        s3deploy.Source.asset(built.dist, { exclude: ['assets', 'assets/**'] }),
        s3deploy.Source.jsonData('config.json', appConfig),
      ],
      cacheControl: [s3deploy.CacheControl.fromString(CACHE_CONTROL.documents)],
      distribution,
      distributionPaths: ['/index.html', '/config.json'],
    });
    documents.node.addDependency(assets);

    // CDK's upload function (one per stack, shared by both uploads), not the service's own code
    const uploader = this.node.children.find((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (!uploader) throw new Error("no BucketDeployment function in the web content stack: aws-cdk-lib's construct ids changed");
    acknowledgeMatching(
      uploader,
      /^AwsSolutions-IAM4\[Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/AWSLambdaBasicExecutionRole\]$/,
      "CDK's BucketDeployment function: the basic execution role only lets it write its own logs.",
    );
    acknowledgeMatching(
      uploader,
      /^AwsSolutions-IAM5\[/,
      "CDK's BucketDeployment function, its grant as CDK generates it: it reads every object of its source assets (the CDK assets bucket/*) and writes, replaces and deletes objects of the web bucket (bucket/*); and CDK grants CloudFront's CreateInvalidation and GetInvalidation on * (the distribution's id is the only one it invalidates).",
    );
    acknowledgeMatching(
      uploader,
      /^AwsSolutions-L1$/,
      "CDK's BucketDeployment function: its Python runtime is the one the installed aws-cdk-lib ships the handler for, and moves with aws-cdk-lib.",
    );
  }
}
