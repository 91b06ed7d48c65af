/**
 * Secrets Manager on this machine: every secret of the synthesized stacks, its value generated the way
 * CloudFormation generates it (GenerateSecretString: length, excluded characters, a JSON template with a
 * generated key) and kept in the twin folder, so a restart keeps the cron secret and the database
 * password. The database secret also gets what its RDS attachment adds (engine, host, port, dbname).
 * It answers GetSecretValue, DescribeSecret and PutSecretValue (a new current value, as a rotation's last
 * step leaves it) in the AWS JSON 1.1 protocol behind the AWS edge.
 */
import { createHash, randomInt } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PlanDatabase, PlanSecret } from '../assembly/plan';
import type { AwsHttpRequest } from '../iam/requests';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

const generatePassword = (generate: NonNullable<PlanSecret['generate']>): string => {
  const excluded = new Set(generate.excludeCharacters ?? '');
  const alphabet = [...(LETTERS + DIGITS + (generate.excludePunctuation ? '' : PUNCTUATION))].filter((c) => !excluded.has(c));
  return Array.from({ length: generate.passwordLength ?? 32 }, () => alphabet[randomInt(alphabet.length)]).join('');
};

const generateValue = (secret: PlanSecret, database: PlanDatabase): string => {
  const generate = secret.generate ?? {};
  const password = generatePassword(generate);
  if (!generate.secretStringTemplate || !generate.generateStringKey) return password;
  const value = { ...(JSON.parse(generate.secretStringTemplate) as Record<string, unknown>), [generate.generateStringKey]: password };
  // the RDS secret attachment writes the instance's connection details into the secret
  if (secret.arn === database.secretArn)
    Object.assign(value, {
      engine: 'postgres',
      host: database.instance.host,
      port: database.instance.port,
      dbname: database.instance.name,
    });
  return JSON.stringify(value);
};

export interface SecretStore {
  /** the value of a secret by ARN or name */
  value: (nameOrArn: string) => string | undefined;
  arnOf: (nameOrArn: string) => string | undefined;
  /** a new current value, as PutSecretValue sets it (kept in the twin folder) */
  put: (nameOrArn: string, value: string) => void;
  /** the Secrets Manager API (GetSecretValue, DescribeSecret) for the AWS edge */
  handle: (request: AwsHttpRequest) => Promise<{ status: number; headers: Record<string, string>; body: string }>;
}

export const loadOrCreateSecrets = (twinDir: string, secrets: PlanSecret[], database: PlanDatabase): SecretStore => {
  const file = join(twinDir, 'secrets.json');
  const stored = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  let changed = false;
  for (const secret of secrets) {
    if (stored[secret.logicalId] !== undefined) continue;
    stored[secret.logicalId] = generateValue(secret, database);
    changed = true;
  }
  if (changed) writeFileSync(file, JSON.stringify(stored, null, 1), { mode: 0o600 });

  const find = (nameOrArn: string) => secrets.find((s) => s.arn === nameOrArn || s.name === nameOrArn);
  const put = (secret: PlanSecret, value: string) => {
    if (stored[secret.logicalId] === value) return;
    stored[secret.logicalId] = value;
    writeFileSync(file, JSON.stringify(stored, null, 1), { mode: 0o600 });
  };
  /** a version id per value: a new value is a new version, and a restart keeps the id */
  const versionOf = (secret: PlanSecret) =>
    `twin-${createHash('sha256')
      .update(stored[secret.logicalId] ?? '')
      .digest('hex')
      .slice(0, 32)}`;
  const json = (status: number, body: unknown, type?: string) => ({
    status,
    headers: { 'content-type': 'application/x-amz-json-1.1', ...(type && { 'x-amzn-errortype': type }) },
    body: JSON.stringify(body),
  });
  return {
    value: (nameOrArn) => {
      const s = find(nameOrArn);
      return s && stored[s.logicalId];
    },
    arnOf: (nameOrArn) => find(nameOrArn)?.arn,
    put: (nameOrArn, value) => {
      const secret = find(nameOrArn);
      if (!secret) throw new Error(`no secret ${nameOrArn} in the deployment`);
      put(secret, value);
    },
    handle: async (request) => {
      const operation = (request.headers['x-amz-target'] ?? '').replace(/^secretsmanager\./, '');
      const body = JSON.parse(request.body.toString('utf8') || '{}') as {
        SecretId?: string;
        SecretString?: string;
        VersionStages?: string[];
      };
      const secret = body.SecretId ? find(body.SecretId) : undefined;
      if (!secret)
        return json(
          400,
          { __type: 'ResourceNotFoundException', Message: "Secrets Manager can't find the specified secret." },
          'ResourceNotFoundException',
        );
      const created = Date.now() / 1000;
      if (operation === 'GetSecretValue') {
        return json(200, {
          ARN: secret.arn,
          Name: secret.name,
          SecretString: stored[secret.logicalId],
          VersionId: versionOf(secret),
          VersionStages: ['AWSCURRENT'],
          CreatedDate: created,
        });
      }
      if (operation === 'DescribeSecret')
        return json(200, { ARN: secret.arn, Name: secret.name, VersionIdsToStages: { [versionOf(secret)]: ['AWSCURRENT'] } });
      if (operation === 'PutSecretValue') {
        // only the current version is kept: a value staged AWSPENDING (a rotation's first step) is not modelled
        if (typeof body.SecretString !== 'string' || (body.VersionStages && !body.VersionStages.includes('AWSCURRENT'))) {
          return json(
            400,
            {
              __type: 'InvalidRequestException',
              Message: "The twin's Secrets Manager stores a SecretString as the AWSCURRENT version only",
            },
            'InvalidRequestException',
          );
        }
        put(secret, body.SecretString);
        return json(200, { ARN: secret.arn, Name: secret.name, VersionId: versionOf(secret), VersionStages: ['AWSCURRENT'] });
      }
      return json(
        400,
        { __type: 'InvalidRequestException', Message: `The twin's Secrets Manager does not serve ${operation}` },
        'InvalidRequestException',
      );
    },
  };
};
