/**
 * CloudFormation, as far as the twin needs it: physical names and attributes for the resources of the
 * synthesized stacks (what CloudFormation would create, named the way it names them, with the twin's
 * account and region), and evaluation of the intrinsic functions the templates use in the places the
 * twin reads (environments, policies, the API, queues, schedules, the user pool). An intrinsic or an
 * attribute it does not know fails loudly, naming where: the twin never guesses a value.
 */
import { createHash } from 'node:crypto';
import type { CfnResource, Template, TemplateParameter } from './assembly';

const TWIN_ACCOUNT = '000000000000';
const TWIN_REGION = 'us-east-1';
const PARTITION = 'aws';
const URL_SUFFIX = 'amazonaws.com';

/** A stable pseudo-random string per resource, standing in for CloudFormation's random name parts. */
const token = (seed: string, length: number, alphabet: string): string => {
  const bytes = createHash('sha256').update(seed).digest();
  return Array.from({ length }, (_, i) => alphabet[bytes[i % bytes.length]! % alphabet.length]).join('');
};
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789';
const MIXED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** CloudFormation's `<stack>-<logicalId>-<RANDOM>` for resources given no name. */
const generatedName = (stack: string, logicalId: string, max: number): string => {
  const suffix = token(`${stack}/${logicalId}`, 12, UPPER);
  return `${`${stack}-${logicalId}`.slice(0, max - suffix.length - 1)}-${suffix}`;
};

export interface ResourceRef {
  stack: string;
  logicalId: string;
}

export class Resolver {
  constructor(
    readonly templates: Map<string, Template>,
    readonly region = TWIN_REGION,
    readonly account = TWIN_ACCOUNT,
  ) {}

  template(stack: string): Template {
    const template = this.templates.get(stack);
    if (!template) throw new Error(`no stack ${stack} in the cloud assembly`);
    return template;
  }

  resource({ stack, logicalId }: ResourceRef): CfnResource {
    const resource = this.template(stack).Resources[logicalId];
    if (!resource) throw new Error(`${stack}: no resource ${logicalId}`);
    return resource;
  }

  /** Every resource of a type, across the stacks, that CloudFormation creates (its Condition, if any, holds). */
  all(type: string): (ResourceRef & { resource: CfnResource })[] {
    return [...this.templates]
      .flatMap(([stack, template]) =>
        Object.entries(template.Resources)
          .filter(([, r]) => r.Type === type)
          .map(([logicalId, resource]) => ({ stack, logicalId, resource })),
      )
      .filter((ref) => this.exists(ref));
  }

  /** A resource property, resolved. */
  property<T = unknown>(ref: ResourceRef, name: string): T {
    return this.value(ref.stack, this.resource(ref).Properties?.[name], `${ref.stack}/${ref.logicalId}.${name}`) as T;
  }

  /** The physical name CloudFormation gives a resource (its own name property when the template sets one). */
  physicalName(ref: ResourceRef): string {
    const { stack, logicalId } = ref;
    const resource = this.resource(ref);
    const own = (name: string) => (resource.Properties?.[name] !== undefined ? String(this.property(ref, name)) : undefined);
    switch (resource.Type) {
      case 'AWS::SQS::Queue':
        return own('QueueName') ?? generatedName(stack, logicalId, 80);
      case 'AWS::S3::Bucket':
        return own('BucketName') ?? generatedName(stack, logicalId, 63).toLowerCase();
      case 'AWS::Lambda::Function':
        return own('FunctionName') ?? generatedName(stack, logicalId, 64);
      case 'AWS::IAM::Role':
        return own('RoleName') ?? generatedName(stack, logicalId, 64);
      case 'AWS::SecretsManager::Secret':
        return own('Name') ?? `${logicalId}-${token(`${stack}/${logicalId}`, 12, MIXED)}`;
      case 'AWS::RDS::DBProxy':
        return own('DBProxyName') ?? generatedName(stack, logicalId, 60).toLowerCase();
      case 'AWS::RDS::DBInstance':
        return own('DBInstanceIdentifier') ?? generatedName(stack, logicalId, 63).toLowerCase();
      case 'AWS::Cognito::UserPool':
        return `${this.region}_${token(`${stack}/${logicalId}`, 9, MIXED)}`;
      case 'AWS::Cognito::UserPoolClient':
        return token(`${stack}/${logicalId}`, 26, LOWER);
      case 'AWS::ApiGatewayV2::Api':
        return token(`${stack}/${logicalId}`, 10, LOWER);
      case 'AWS::Scheduler::Schedule':
      case 'AWS::Events::Rule':
        return own('Name') ?? generatedName(stack, logicalId, 64);
      case 'AWS::Logs::LogGroup':
        return own('LogGroupName') ?? generatedName(stack, logicalId, 512);
      case 'AWS::CloudFront::Distribution':
        return `E${token(`${stack}/${logicalId}`, 13, UPPER)}`;
      case 'AWS::SSM::Parameter':
        return own('Name') ?? `CFN-${generatedName(stack, logicalId, 2048)}`;
      default:
        return `${logicalId}-${token(`${stack}/${logicalId}`, 12, UPPER)}`;
    }
  }

  /** `Ref` of a resource, as CloudFormation documents it per type. */
  ref(ref: ResourceRef): string {
    const { Type } = this.resource(ref);
    switch (Type) {
      case 'AWS::SQS::Queue':
        return this.getAtt(ref, 'QueueUrl');
      case 'AWS::SecretsManager::Secret':
        return this.getAtt(ref, 'Id');
      case 'AWS::SecretsManager::SecretTargetAttachment':
        return String(this.property(ref, 'SecretId'));
      case 'AWS::SNS::Topic':
        return `arn:${PARTITION}:sns:${this.region}:${this.account}:${this.physicalName(ref)}`;
      default:
        return this.physicalName(ref);
    }
  }

  getAtt(ref: ResourceRef, attribute: string): string {
    const { Type } = this.resource(ref);
    const name = this.physicalName(ref);
    const { region, account } = this;
    const known: Record<string, Record<string, () => string>> = {
      'AWS::SQS::Queue': {
        QueueUrl: () => `https://sqs.${region}.${URL_SUFFIX}/${account}/${name}`,
        Arn: () => `arn:${PARTITION}:sqs:${region}:${account}:${name}`,
        QueueName: () => name,
      },
      'AWS::S3::Bucket': {
        Arn: () => `arn:${PARTITION}:s3:::${name}`,
        DomainName: () => `${name}.s3.${URL_SUFFIX}`,
        RegionalDomainName: () => `${name}.s3.${region}.${URL_SUFFIX}`,
      },
      'AWS::SecretsManager::Secret': {
        Id: () =>
          `arn:${PARTITION}:secretsmanager:${region}:${account}:secret:${name}-${token(`${ref.stack}/${ref.logicalId}/arn`, 6, MIXED)}`,
      },
      'AWS::Lambda::Function': { Arn: () => `arn:${PARTITION}:lambda:${region}:${account}:function:${name}` },
      'AWS::IAM::Role': { Arn: () => `arn:${PARTITION}:iam::${account}:role/${name}`, RoleId: () => `AROA${token(name, 17, UPPER)}` },
      'AWS::Cognito::UserPool': {
        Arn: () => `arn:${PARTITION}:cognito-idp:${region}:${account}:userpool/${name}`,
        ProviderURL: () => `https://cognito-idp.${region}.${URL_SUFFIX}/${name}`,
        ProviderName: () => `cognito-idp.${region}.${URL_SUFFIX}/${name}`,
        UserPoolId: () => name,
      },
      'AWS::Cognito::UserPoolClient': { ClientId: () => name },
      'AWS::RDS::DBProxy': {
        // RDS lower-cases proxy names in the endpoint host
        Endpoint: () => `${name.toLowerCase()}.proxy-${token(`${account}/${region}`, 12, LOWER)}.${region}.rds.${URL_SUFFIX}`,
        DBProxyArn: () => `arn:${PARTITION}:rds:${region}:${account}:db-proxy:prx-${token(name, 17, LOWER)}`,
      },
      'AWS::RDS::DBInstance': {
        'Endpoint.Address': () => `${name}.${token(`${account}/${region}`, 12, LOWER)}.${region}.rds.${URL_SUFFIX}`,
        'Endpoint.Port': () => '5432',
      },
      'AWS::ApiGatewayV2::Api': { ApiEndpoint: () => `https://${name}.execute-api.${region}.${URL_SUFFIX}`, ApiId: () => name },
      'AWS::Scheduler::Schedule': { Arn: () => `arn:${PARTITION}:scheduler:${region}:${account}:schedule/default/${name}` },
      // a rule on the default event bus (a custom bus's rules are rule/<bus>/<name>: refused by the plan)
      'AWS::Events::Rule': { Arn: () => `arn:${PARTITION}:events:${region}:${account}:rule/${name}` },
      'AWS::Logs::LogGroup': { Arn: () => `arn:${PARTITION}:logs:${region}:${account}:log-group:${name}:*` },
      'AWS::SNS::Topic': { TopicArn: () => this.ref(ref) },
      'AWS::EC2::SecurityGroup': { GroupId: () => `sg-${token(`${ref.stack}/${ref.logicalId}`, 17, '0123456789abcdef')}` },
      'AWS::CloudFront::Distribution': { DomainName: () => `d${token(name, 13, LOWER)}.cloudfront.net`, Id: () => name },
      'AWS::KMS::Key': { Arn: () => `arn:${PARTITION}:kms:${region}:${account}:key/${name}` },
    };
    const attr = known[Type]?.[attribute];
    if (!attr) throw new Error(`${ref.stack}/${ref.logicalId}: the twin does not model Fn::GetAtt ${attribute} of ${Type}`);
    return attr();
  }

  /** Evaluates a template value in a stack: intrinsic functions, pseudo parameters, nested arrays and objects. */
  value(stack: string, node: unknown, where = stack): unknown {
    if (Array.isArray(node)) return node.map((item, i) => this.value(stack, item, `${where}[${i}]`));
    if (node === null || typeof node !== 'object') return node;
    const entries = Object.entries(node as Record<string, unknown>);
    if (entries.length !== 1 || !(entries[0]![0] === 'Ref' || entries[0]![0].startsWith('Fn::') || entries[0]![0] === 'Condition')) {
      return Object.fromEntries(entries.map(([k, v]) => [k, this.value(stack, v, `${where}.${k}`)]));
    }
    const [fn, arg] = entries[0]!;
    const here = (v: unknown) => this.value(stack, v, where);
    const str = (v: unknown) => String(here(v));
    switch (fn) {
      case 'Ref':
        return this.refOf(stack, String(arg), where);
      case 'Fn::GetAtt': {
        const [logicalId, attribute] = Array.isArray(arg) ? arg.map(String) : String(arg).split(/\.(.+)/);
        return this.getAtt({ stack, logicalId: logicalId! }, attribute!);
      }
      case 'Fn::Join': {
        const [separator, parts] = arg as [string, unknown];
        return (here(parts) as unknown[]).map(String).join(separator);
      }
      case 'Fn::Sub': {
        const [text, vars] = Array.isArray(arg) ? (arg as [string, Record<string, unknown>]) : [String(arg), {}];
        return text.replace(/\$\{([^!}][^}]*)\}/g, (_, name: string) => {
          if (name in vars) return str(vars[name]);
          const [logicalId, attribute] = name.split(/\.(.+)/);
          return attribute ? this.getAtt({ stack, logicalId: logicalId! }, attribute) : this.refOf(stack, name, where);
        });
      }
      case 'Fn::Select': {
        const [index, list] = arg as [unknown, unknown];
        return (here(list) as unknown[])[Number(here(index))];
      }
      case 'Fn::Split': {
        const [separator, text] = arg as [string, unknown];
        return str(text).split(separator);
      }
      case 'Fn::GetAZs':
        return ['a', 'b', 'c'].map((zone) => `${this.region}${zone}`);
      case 'Fn::FindInMap': {
        const [map, top, second] = (arg as unknown[]).map(str);
        return this.template(stack).Mappings?.[map!]?.[top!]?.[second!];
      }
      case 'Fn::If': {
        const [condition, whenTrue, whenFalse] = arg as [string, unknown, unknown];
        return this.condition(stack, condition) ? here(whenTrue) : here(whenFalse);
      }
      case 'Fn::Equals': {
        const [a, b] = arg as [unknown, unknown];
        return JSON.stringify(here(a)) === JSON.stringify(here(b));
      }
      case 'Fn::And':
        return (arg as unknown[]).every((c) => here(c) === true);
      case 'Fn::Or':
        return (arg as unknown[]).some((c) => here(c) === true);
      case 'Fn::Not':
        return here((arg as unknown[])[0]) !== true;
      case 'Condition':
        return this.condition(stack, String(arg));
      case 'Fn::Base64':
        return Buffer.from(str(arg)).toString('base64');
      default:
        throw new Error(`${where}: the twin does not evaluate ${fn}`);
    }
  }

  condition(stack: string, name: string): boolean {
    const definition = this.template(stack).Conditions?.[name];
    if (definition === undefined) throw new Error(`${stack}: no condition ${name}`);
    return this.value(stack, definition, `${stack}.Conditions.${name}`) === true;
  }

  /** Whether a resource exists (its Condition, if any, holds). */
  exists(ref: ResourceRef): boolean {
    const condition = this.resource(ref).Condition;
    return condition === undefined || this.condition(ref.stack, condition);
  }

  private refOf(stack: string, name: string, where: string): string {
    switch (name) {
      case 'AWS::Region':
        return this.region;
      case 'AWS::AccountId':
        return this.account;
      case 'AWS::Partition':
        return PARTITION;
      case 'AWS::URLSuffix':
        return URL_SUFFIX;
      case 'AWS::StackName':
        return stack;
      case 'AWS::StackId':
        return `arn:${PARTITION}:cloudformation:${this.region}:${this.account}:stack/${stack}/${token(stack, 8, LOWER)}`;
      default: {
        const parameter = this.template(stack).Parameters?.[name];
        if (parameter) return this.parameterValue(stack, name, parameter, where);
        if (!this.template(stack).Resources[name])
          throw new Error(`${where}: Ref to ${name}, which is not a resource or parameter of ${stack}`);
        return this.ref({ stack, logicalId: name });
      }
    }
  }

  /**
   * A template parameter's value at deploy time. Only SSM-backed parameters are modelled (the app passes no other):
   * CloudFormation reads the parameter Default names, as it stands when the stack is created or updated, which
   * here is the value the AWS::SSM::Parameter resource writing it holds (lib/stacks/shared-values.ts).
   */
  private parameterValue(stack: string, name: string, parameter: TemplateParameter, where: string): string {
    if (parameter.Type !== 'AWS::SSM::Parameter::Value<String>')
      throw new Error(`${where}: parameter ${name} of ${stack} is a ${parameter.Type}: the twin models only SSM-backed string parameters`);
    const parameterName = String(parameter.Default);
    const writer = this.all('AWS::SSM::Parameter').find((p) => this.property(p, 'Name') === parameterName);
    if (!writer) throw new Error(`${where}: no stack writes the SSM parameter ${parameterName} that ${stack}'s ${name} reads`);
    return String(this.property(writer, 'Value'));
  }

  /** The resource a physical ARN or name stands for (e.g. the function an integration's URI names). */
  findByArn(type: string, arn: string, attribute = 'Arn'): ResourceRef | undefined {
    return this.all(type).find((r) => this.getAtt(r, attribute) === arn);
  }
}
