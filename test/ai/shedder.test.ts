import { ENV } from '#core/config';
import {
  guardAgainstShedding,
  isHot,
  QualityShedError,
  recordThrottle,
  shedderDisabled,
  shedderStatus,
  shouldShed,
} from '#core/ai/shedder';
import type { AiPurpose } from '#core/db/schema';
import { logger } from '#core/logger';
import { testEngine, useTestDatabase } from '../support/db';
import { setEnv } from '../support/config-env';

const PRIMARY = 'us-east-1';
const FALLBACK = 'us-west-2';
const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const T0 = Date.parse('2025-03-01T12:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);

describe('shedder rules', () => {
  test('trips above 3 throttles', () => {
    expect([0, 1, 2, 3, 4, 10].map(isHot)).toEqual([false, false, false, false, true, true]);
  });

  test('only quality and judge calls are shed, only when hot and enabled', () => {
    const purposes: AiPurpose[] = ['analysis', 'quality', 'judge', 'embedding'];
    expect(purposes.filter((p) => shouldShed(p, 4, false))).toEqual(['quality', 'judge']);
    expect(purposes.filter((p) => shouldShed(p, 3, false))).toEqual([]);
    expect(purposes.filter((p) => shouldShed(p, 100, true))).toEqual([]);
  });

  test('AI_SHEDDER_DISABLED: true or 1 disables', () => {
    const saved = process.env[ENV.aiShedderDisabled];
    try {
      const read = (value: string | undefined) => {
        setEnv({ [ENV.aiShedderDisabled]: value });
        return shedderDisabled();
      };
      expect([undefined, '', 'false', '0', 'true', 'TRUE', '1'].map(read)).toEqual([false, false, false, false, true, true, true]);
    } finally {
      setEnv({ [ENV.aiShedderDisabled]: saved });
    }
  });
});

describe(`shedder on ${testEngine()}`, () => {
  const db = useTestDatabase();
  let warn: jest.SpyInstance;

  beforeEach(async () => {
    await db.deleteFrom('ai_calls').execute();
    warn = jest.spyOn(logger, 'warn');
  });
  afterEach(() => warn.mockRestore());

  const throttle = (seconds: number, region = PRIMARY) =>
    recordThrottle(db, { region, purpose: 'analysis', modelId: MODEL, at: at(seconds), errorName: 'ThrottlingException' });
  const status = (seconds: number, disabled = false) => shedderStatus(db, { now: at(seconds), disabled, fallbackRegion: FALLBACK });
  const guard = (purpose: AiPurpose, seconds: number, disabled = false) =>
    guardAgainstShedding(db, { purpose, now: at(seconds), disabled, region: PRIMARY, modelId: MODEL, analysisId: undefined });
  const ledger = (outcome: 'throttled' | 'shed') =>
    db
      .selectFrom('ai_calls')
      .select(['purpose', 'region', 'model_id', 'error_name', 'created_at'])
      .where('outcome', '=', outcome)
      .orderBy('id')
      .execute();
  const markers = (marker: string) => warn.mock.calls.filter(([message]) => message === marker);

  test('recordThrottle writes the ledger row and logs [AI:Throttle] with region and purpose', async () => {
    await recordThrottle(db, { region: FALLBACK, purpose: 'quality', modelId: MODEL, at: at(5), errorName: 'RateLimitError' });
    expect(await ledger('throttled')).toEqual([
      { purpose: 'quality', region: FALLBACK, model_id: MODEL, error_name: 'RateLimitError', created_at: at(5) },
    ]);
    expect(markers('[AI:Throttle]')).toEqual([
      ['[AI:Throttle]', expect.objectContaining({ region: FALLBACK, purpose: 'quality', modelId: MODEL })],
    ]);
  });

  test('3 throttles in the window: not hot, quality calls go ahead', async () => {
    for (const s of [0, 10, 20]) await throttle(s);
    expect(await status(30)).toEqual({ hot: false, recentThrottles: 3, fallbackRegion: FALLBACK, disabled: false });
    await expect(guard('quality', 30)).resolves.toBeUndefined();
    expect(await ledger('shed')).toEqual([]);
    expect(markers('[AI:Shed]')).toEqual([]);
  });

  test('4 throttles in 60 s: a quality call is shed (ledger row, [AI:Shed]) while an analysis call at the same moment is served', async () => {
    for (const s of [0, 10, 20, 30]) await throttle(s);
    expect(await status(40)).toEqual({ hot: true, recentThrottles: 4, fallbackRegion: FALLBACK, disabled: false });

    const shed = guard('quality', 40);
    await expect(shed).rejects.toBeInstanceOf(QualityShedError);
    await expect(shed).rejects.toMatchObject({ name: 'QualityShedError', recentThrottles: 4 });
    expect(await ledger('shed')).toEqual([
      { purpose: 'quality', region: PRIMARY, model_id: MODEL, error_name: 'QualityShedError', created_at: at(40) },
    ]);
    expect(markers('[AI:Shed]')).toEqual([
      ['[AI:Shed]', expect.objectContaining({ purpose: 'quality', region: PRIMARY, recentThrottles: 4 })],
    ]);

    await expect(guard('analysis', 40)).resolves.toBeUndefined();
    await expect(guard('embedding', 40)).resolves.toBeUndefined();
    await expect(guard('judge', 40)).rejects.toBeInstanceOf(QualityShedError);
    expect((await ledger('shed')).map((r) => r.purpose)).toEqual(['quality', 'judge']);
  });

  test('the window slides: throttles older than 60 s no longer count', async () => {
    for (const s of [0, 10, 20, 30]) await throttle(s);
    expect(await status(59.999)).toMatchObject({ hot: true, recentThrottles: 4 });
    // (now − 60 s, now]: the throttle at 0 s leaves the window at exactly 60 s
    expect(await status(60)).toMatchObject({ hot: false, recentThrottles: 3 });
    expect(await status(61)).toMatchObject({ hot: false, recentThrottles: 3 });
    await expect(guard('quality', 61)).resolves.toBeUndefined();
    expect(await status(91)).toMatchObject({ hot: false, recentThrottles: 0 });
    // a throttle stamped after `now` is not in its window either
    expect(await status(-1)).toMatchObject({ hot: false, recentThrottles: 0 });
  });

  test('throttles in both regions count together', async () => {
    await throttle(0, PRIMARY);
    await throttle(5, FALLBACK);
    await throttle(10, PRIMARY);
    expect(await status(15)).toMatchObject({ hot: false, recentThrottles: 3 });
    await throttle(15, FALLBACK);
    expect(await status(15)).toMatchObject({ hot: true, recentThrottles: 4 });
    await expect(guard('quality', 15)).rejects.toBeInstanceOf(QualityShedError);
  });

  test('disabled: never sheds; the status says so and still counts the throttles', async () => {
    for (const s of [0, 1, 2, 3, 4, 5]) await throttle(s);
    expect(await status(6, true)).toEqual({ hot: false, recentThrottles: 6, fallbackRegion: FALLBACK, disabled: true });
    await expect(guard('quality', 6, true)).resolves.toBeUndefined();
    await expect(guard('judge', 6, true)).resolves.toBeUndefined();
    expect(await ledger('shed')).toEqual([]);
    expect(markers('[AI:Shed]')).toEqual([]);
  });
});
