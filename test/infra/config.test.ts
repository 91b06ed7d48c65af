import { config, env, parseConfig, reloadConfig, requireEnv } from '#core/config';
import { ATTEMPT_TIMEOUT_DEFAULTS_MS } from '#core/ai/timeouts';
import { ENV } from '#manifest/runtime-names';
import { setEnv } from '../support/config-env';

describe('parseConfig', () => {
  test('unset and empty variables are undefined; typed ones are parsed, with their defaults', () => {
    const parsed = parseConfig({
      [ENV.filesBucket]: 'files',
      [ENV.dbHost]: '',
      [ENV.analysisLeaseSeconds]: '30',
      [ENV.retrievalMinSimilarity]: '0.15',
      [ENV.aiShedderDisabled]: 'TRUE',
    });
    expect(parsed.text).toEqual({
      [ENV.filesBucket]: 'files',
      [ENV.analysisLeaseSeconds]: '30',
      [ENV.retrievalMinSimilarity]: '0.15',
      [ENV.aiShedderDisabled]: 'TRUE',
    });
    expect(parsed).toMatchObject({
      [ENV.analysisLeaseSeconds]: 30,
      [ENV.retrievalMinSimilarity]: 0.15,
      [ENV.aiShedderDisabled]: true,
      [ENV.aiAttemptTimeoutMs]: ATTEMPT_TIMEOUT_DEFAULTS_MS,
    });
    expect(parsed[ENV.generationCap]).toBeUndefined();
  });

  test('a malformed value throws naming its variable', () => {
    expect(() => parseConfig({ [ENV.generationCap]: 'many' })).toThrow(
      `environment variable ${ENV.generationCap}: must be an integer of at least 1, got 'many'`,
    );
    expect(() => parseConfig({ [ENV.analysisLeaseSeconds]: '2.5' })).toThrow(ENV.analysisLeaseSeconds);
    expect(() => parseConfig({ [ENV.retrievalMinSimilarity]: '1.5' })).toThrow(
      `environment variable ${ENV.retrievalMinSimilarity}: the retrieval similarity floor must be a number from 0 to 1, got '1.5'`,
    );
    expect(() => parseConfig({ [ENV.aiAttemptTimeoutMs]: 'soon' })).toThrow(ENV.aiAttemptTimeoutMs);
  });
});

describe('config', () => {
  const saved = process.env[ENV.filesBucket];
  afterEach(() => setEnv({ [ENV.filesBucket]: saved }));

  test('parses the environment once: a later change is not seen until reloaded', () => {
    setEnv({ [ENV.filesBucket]: 'first' });
    expect(config()).toBe(config());
    process.env[ENV.filesBucket] = 'second';
    expect(env(ENV.filesBucket)).toBe('first');
    reloadConfig();
    expect(env(ENV.filesBucket)).toBe('second');
  });

  test('a required variable that is not set throws naming it; a name outside runtime-names is refused', () => {
    setEnv({ [ENV.filesBucket]: undefined });
    expect(() => requireEnv(ENV.filesBucket)).toThrow(`environment variable ${ENV.filesBucket} is not set`);
    expect(() => env('FILES_BUCKEt')).toThrow(/not a service variable/);
  });
});
