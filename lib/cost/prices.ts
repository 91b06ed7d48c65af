/**
 * AWS list prices the cost estimate uses (lib/cost/estimate.ts, `npm run cost`), in US dollars, for us-east-1, as
 * AWS's pricing pages stated them on PRICES_AS_OF. The one place to change when a price changes: docs/cost.md is
 * rendered from these and the synthesized templates.
 */
export const PRICES_AS_OF = '2026-11-29';

/** hours in a month, as AWS's calculator counts them */
export const HOURS_A_MONTH = 730;

export const PRICES = {
  /** NAT gateway, per hour (its data processing, $0.045 a GB, is usage) */
  natGatewayHour: 0.045,
  /** a public IPv4 address, per hour (a NAT gateway's Elastic IP, a NAT instance's own) */
  publicIpv4Hour: 0.005,
  /** EC2 on-demand (Linux), per hour: the NAT instances */
  ec2InstanceHour: { 't4g.nano': 0.0042, 't4g.micro': 0.0084 } as Record<string, number>,
  /** EBS gp3, per GB-month, and the root volume of Amazon Linux 2023's AMI (GB), which the template does not state */
  ebsGp3GbMonth: 0.08,
  amazonLinuxRootGb: 8,
  /** an interface VPC endpoint, per availability zone and hour (gateway endpoints are free) */
  interfaceEndpointAzHour: 0.01,
  /** RDS for PostgreSQL, single-AZ on-demand, per hour; Multi-AZ doubles it */
  rdsInstanceHour: { 'db.t4g.micro': 0.016, 'db.t4g.small': 0.032, 'db.t4g.medium': 0.065, 'db.m7g.large': 0.168 } as Record<
    string,
    number
  >,
  /** RDS gp3 storage, per GB-month (single-AZ; Multi-AZ doubles it) */
  rdsGp3GbMonth: 0.115,
  /** RDS Proxy, per vCPU-hour of the instance behind it, at least 2 vCPUs */
  rdsProxyVcpuHour: 0.015,
  /** vCPUs of the instance classes above */
  rdsInstanceVcpus: { 'db.t4g.micro': 2, 'db.t4g.small': 2, 'db.t4g.medium': 2, 'db.m7g.large': 2 } as Record<string, number>,
  /** a standard-resolution CloudWatch alarm, per metric it reads and month (a metric-math alarm pays for each) */
  alarmMetricMonth: 0.1,
  /** a CloudWatch dashboard per month, beyond the three free */
  dashboardMonth: 3,
  /** a Synthetics canary run (plus its Lambda time and S3 artifacts, cents) */
  canaryRun: 0.0012,
  /** a customer-managed KMS key per month */
  kmsKeyMonth: 1,
  /** a Secrets Manager secret per month */
  secretMonth: 0.4,
  /** Lambda compute per GB-second (arm64) and per million requests */
  lambdaArmGbSecond: 0.0000133334,
  lambdaMillionRequests: 0.2,
  /** HTTP API per million requests */
  httpApiMillionRequests: 1,
  /** Bedrock on-demand per million tokens: input, output, prompt-cache write and read (Anthropic's 1.25× and 0.1×) */
  bedrockMillionTokens: {
    'anthropic.claude-sonnet-4-5': { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
    'anthropic.claude-haiku-4-5': { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
    'cohere.embed-english-v3': { input: 0.1, output: 0, cacheWrite: 0, cacheRead: 0 },
  } as Record<string, { input: number; output: number; cacheWrite: number; cacheRead: number }>,
} as const;
