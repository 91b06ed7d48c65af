/**
 * Secrets are cached for SECRET_MAX_AGE_SECONDS and then read again, so a rotated secret reaches a warm
 * container without a cold start (issue 16, item 3). Secrets Manager is the SDK client's `send`, stubbed.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SECRET_MAX_AGE_SECONDS, secretReader } from '#core/aws/secrets';
import { ENV } from '#manifest/runtime-names';
import { setEnv } from '../support/config-env';

const ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:ias/cron-secret-AbCdEf';
const VARIABLE = ENV.cronSecretArn;

let current = 'first';
let reads: string[] = [];

beforeEach(() => {
  setEnv({ [VARIABLE]: ARN });
  current = 'first';
  reads = [];
  jest.spyOn(SecretsManagerClient.prototype, 'send').mockImplementation((async (command: GetSecretValueCommand) => {
    reads.push(String(command.input.SecretId));
    return { SecretString: current };
  }) as never);
  // only the clock is faked: the provider's expiry reads Date
  jest.useFakeTimers({
    now: new Date('2026-11-24T03:00:00Z'),
    doNotFake: [
      'nextTick',
      'setImmediate',
      'queueMicrotask',
      'setTimeout',
      'clearTimeout',
      'setInterval',
      'clearInterval',
      'hrtime',
      'performance',
    ],
  });
});

afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
  setEnv({ [VARIABLE]: undefined });
});

test('a secret is read once, served from the cache until its max age, then read again (a rotation is picked up)', async () => {
  const secret = secretReader(VARIABLE);
  expect(await secret()).toBe('first');
  current = 'rotated';
  jest.advanceTimersByTime((SECRET_MAX_AGE_SECONDS - 1) * 1000);
  expect(await secret()).toBe('first');
  expect(reads).toEqual([ARN]);

  jest.advanceTimersByTime(2000);
  expect(await secret()).toBe('rotated');
  expect(reads).toEqual([ARN, ARN]);
});

test('a failed read is not cached: the next call reads again', async () => {
  setEnv({ [VARIABLE]: `${ARN}-other` }); // a secret no test has cached
  const secret = secretReader(VARIABLE);
  jest.mocked(SecretsManagerClient.prototype.send).mockRejectedValueOnce(new Error('throttled') as never);
  await expect(secret()).rejects.toThrow('throttled');
  expect(await secret()).toBe('first');
  expect(reads).toEqual([`${ARN}-other`]);
});

test('no variable, no secret (and no read)', async () => {
  setEnv({ [VARIABLE]: undefined });
  expect(await secretReader(VARIABLE)()).toBeUndefined();
  expect(reads).toEqual([]);
});
