/**
 * Values that cross stacks follow their source (lib/stacks/shared-values.ts). A weak cross-stack reference is
 * resolved only when its consumer's template changes, and a replaced producer leaves the consumer's template as it
 * was: so no template may hold one, every value read from another stack must be a parameter CloudFormation
 * resolves afresh and the CDK CLI never skips, and a replaced producer's new value must reach the consumers.
 */
import type { Template } from '../../lib/twin/assembly/assembly';
import { Resolver } from '../../lib/twin/assembly/resolve';
import { resourcesOfType, synthesized, type StageName } from '../support/synth';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The stage's templates by stack name. */
const templatesOf = (stage: StageName): Record<string, Json> => {
  const { templates, stackNames } = synthesized(stage);
  return Object.fromEntries(Object.entries(templates).map(([role, template]) => [stackNames[role as keyof typeof stackNames]!, template]));
};

/** What the CDK CLI does with a stack whose template is unchanged: it deploys it only if it reads an SSM parameter it may not skip. */
const cliDeploysUnchanged = (template: Json): boolean =>
  Object.values((template.Parameters ?? {}) as Record<string, Json>).some(
    (p) => String(p.Type).startsWith('AWS::SSM::Parameter::') && !String(p.Description ?? '').includes('[cdk:skip]'),
  );

const sharedReads = (template: Json): [string, string][] =>
  Object.entries((template.Parameters ?? {}) as Record<string, Json>)
    .filter(([, p]) => p.Type === 'AWS::SSM::Parameter::Value<String>' && !String(p.Description ?? '').includes('[cdk:skip]'))
    .map(([id, p]) => [id, String(p.Default)]);

describe.each(['dev', 'prod'] as const)('%s: values that cross stacks', (stage) => {
  const templates = templatesOf(stage);
  const { dependencies, prefix } = synthesized(stage);

  test('no template holds a cross-stack reference or an export', () => {
    for (const [name, template] of Object.entries(templates)) {
      const text = JSON.stringify(template);
      expect({ name, weak: text.includes('Fn::GetStackOutput'), strong: text.includes('Fn::ImportValue') }).toEqual({
        name,
        weak: false,
        strong: false,
      });
      expect(Object.values((template.Outputs ?? {}) as Record<string, Json>).filter((o) => o.Export)).toEqual([]);
    }
  });

  test('each value read from another stack is a shared parameter one other stack writes, and the reader deploys after it', () => {
    const writers = new Map<string, string>();
    for (const [name, template] of Object.entries(templates)) {
      for (const parameter of Object.values(resourcesOfType(template, 'AWS::SSM::Parameter'))) {
        const parameterName = parameter.Properties.Name as string;
        expect(parameterName).toMatch(new RegExp(`^/${prefix}/shared/`));
        expect(writers.has(parameterName)).toBe(false);
        writers.set(parameterName, name);
      }
    }
    let reads = 0;
    for (const [name, template] of Object.entries(templates)) {
      for (const [, parameterName] of sharedReads(template)) {
        const writer = writers.get(parameterName);
        expect({ name, parameterName, writer: writer !== undefined && writer !== name }).toEqual({ name, parameterName, writer: true });
        expect(dependencies[name]).toContain(writer);
        reads++;
      }
      // a stack that reads a shared value is deployed on every `cdk deploy`, so CloudFormation re-reads it
      if (sharedReads(template).length > 0) expect(cliDeploysUnchanged(template)).toBe(true);
    }
    expect(reads).toBeGreaterThan(10);
  });
});

describe('dev: a replaced producer reaches its consumers at the next deploy', () => {
  const templates = templatesOf('dev');
  const stackOf = (type: string) => Object.entries(templates).find(([, t]) => Object.values(resourcesOfType(t, type)).length > 0)![0];
  const logicalIdOf = (stack: string, type: string) => Object.keys(resourcesOfType(templates[stack]!, type))[0]!;

  /**
   * The templates after a change that replaces a resource (its construct moved, say): a new logical id and, where the
   * template names it, a new name, so a new physical id. Nothing else changes: no other template, in particular.
   */
  const replaced = (stack: string, logicalId: string): Map<string, Template> => {
    const renamed = JSON.parse(JSON.stringify(templates[stack]).replaceAll(`"${logicalId}"`, `"${logicalId}Replaced"`));
    const properties = renamed.Resources[`${logicalId}Replaced`].Properties as Json;
    for (const [key, value] of Object.entries(properties)) {
      if (key.endsWith('Name') && typeof value === 'string') properties[key] = `${value}replaced`;
    }
    return new Map(Object.entries({ ...templates, [stack]: renamed }) as [string, Template][]);
  };

  /** A resource property of a consumer, as CloudFormation resolves it at deploy time (the twin's resolver). */
  const deployed = (
    all: Map<string, Template>,
    stack: string,
    type: string,
    pick: (properties: Json) => unknown,
    match?: (r: Json) => boolean,
  ) => {
    const resolver = new Resolver(all);
    const [logicalId] = Object.entries(resourcesOfType(all.get(stack)! as Json, type)).find(([, r]) => match?.(r) ?? true)!;
    return JSON.stringify(resolver.value(stack, pick(all.get(stack)!.Resources[logicalId]!.Properties as Json), `${stack}/${logicalId}`));
  };

  /** A function's environment variable, in the first function of the stack that has it. */
  const envOf = (stack: string, name: string) => ({
    stack,
    type: 'AWS::Lambda::Function',
    pick: (p: Json) => p.Environment.Variables[name],
    match: (r: Json) => name in r.Properties.Environment.Variables,
  });

  const cases: {
    producer: string;
    type: string;
    consumers: { stack: string; type: string; pick: (p: Json) => unknown; match?: (r: Json) => boolean }[];
  }[] = [
    {
      producer: 'the database proxy',
      type: 'AWS::RDS::DBProxy',
      consumers: [
        envOf('ias-dev-api', 'DB_HOST'),
        envOf('ias-dev-workers', 'DB_HOST'),
        // rds-db:connect names the proxy's resource id
        {
          stack: 'ias-dev-api',
          type: 'AWS::IAM::Policy',
          pick: (p) => p.PolicyDocument,
          match: (r) => JSON.stringify(r).includes('rds-db:connect'),
        },
      ],
    },
    {
      producer: "the SPA's user pool client",
      type: 'AWS::Cognito::UserPoolClient',
      consumers: [
        { stack: 'ias-dev-api', type: 'AWS::ApiGatewayV2::Authorizer', pick: (p) => p.JwtConfiguration.Audience },
        envOf('ias-dev-api', 'USER_POOL_CLIENT_ID'),
      ],
    },
    {
      producer: 'the files bucket',
      type: 'AWS::S3::Bucket',
      consumers: [
        { stack: 'ias-dev-workers', type: 'AWS::Events::Rule', pick: (p) => p.EventPattern.detail.bucket.name },
        envOf('ias-dev-api', 'FILES_BUCKET'),
      ],
    },
  ];

  test.each(cases)('$producer', ({ type, consumers }) => {
    // the files bucket's stack has several buckets: the one functions name
    const stack = stackOf(type);
    const logicalId =
      type === 'AWS::S3::Bucket'
        ? Object.keys(resourcesOfType(templates[stack]!, type)).find((id) => id.startsWith('Files'))!
        : logicalIdOf(stack, type);
    const before = new Map(Object.entries(templates) as [string, Template][]);
    const after = replaced(stack, logicalId);
    for (const consumer of consumers) {
      // nothing in the consumer's template names the producer (a weak reference's output name carries its logical id),
      // so no replacement changes it: the value it reads moves, and the CLI deploys it anyway
      expect(JSON.stringify(templates[consumer.stack])).not.toContain(logicalId);
      expect(cliDeploysUnchanged(templates[consumer.stack]!)).toBe(true);
      const [was, now] = [before, after].map((all) => deployed(all, consumer.stack, consumer.type, consumer.pick, consumer.match)) as [
        string,
        string,
      ];
      expect(now).not.toEqual(was);
      // and what it now holds is the new resource's own value, as its stack resolves it
      const resolver = new Resolver(after);
      const values = Object.values(resourcesOfType(after.get(stack)! as Json, 'AWS::SSM::Parameter'))
        .map((p) => String(resolver.value(stack, p.Properties.Value)))
        .filter((value) => now.includes(value));
      expect(values.length).toBeGreaterThan(0);
    }
  });

  test('the distribution: the CORS origins and the passkey relying party', () => {
    const stack = stackOf('AWS::CloudFront::Distribution');
    const logicalId = logicalIdOf(stack, 'AWS::CloudFront::Distribution');
    const after = replaced(stack, logicalId);
    const before = new Map(Object.entries(templates) as [string, Template][]);
    for (const [consumer, type, pick] of [
      ['ias-dev-api', 'AWS::ApiGatewayV2::Api', (p: Json) => p.CorsConfiguration.AllowOrigins],
      ['ias-dev-data', 'AWS::S3::Bucket', (p: Json) => p.CorsConfiguration?.CorsRules],
      ['ias-dev-identity', 'AWS::Cognito::UserPool', (p: Json) => p.WebAuthnRelyingPartyID],
    ] as const) {
      const match = type === 'AWS::S3::Bucket' ? (r: Json) => r.Properties.CorsConfiguration !== undefined : undefined;
      expect(JSON.stringify(templates[consumer])).not.toContain(logicalId);
      expect(cliDeploysUnchanged(templates[consumer]!)).toBe(true);
      expect(deployed(after, consumer, type, pick, match)).not.toEqual(deployed(before, consumer, type, pick, match));
    }
  });
});
