/**
 * The X-Ray SDK's mode as the tracer loads it (layers/core/xray-mode.ts): automatic in a Lambda environment, where a
 * subsegment finds its segment through the SDK's async hook; manual outside one, where the tracer is off and that
 * hook would follow every promise of the process (the twin's, a CLI's) for nothing; a mode set by hand kept.
 */
import asyncHooks from 'node:async_hooks';

/** The tracer loaded afresh under `env`: whether tracing is on, the SDK's mode, and the async hooks made meanwhile. */
const loadTracer = async (env: Record<string, string | undefined>) => {
  const saved = { ...process.env };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  const hooks = jest.spyOn(asyncHooks, 'createHook');
  try {
    let loaded = { tracing: false, automatic: false };
    await jest.isolateModulesAsync(async () => {
      const { tracer } = await import('#core/tracer');
      const xray = await import('aws-xray-sdk-core');
      loaded = { tracing: tracer.isTracingEnabled(), automatic: xray.isAutomaticMode() };
    });
    return { ...loaded, hooks: hooks.mock.calls.length };
  } finally {
    hooks.mockRestore();
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
};

const LAMBDA = { AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x', AWS_REGION: 'us-east-1' };

test('in a Lambda environment: tracing on, the SDK in automatic mode with its async hook', async () => {
  expect(await loadTracer({ ...LAMBDA, AWS_XRAY_MANUAL_MODE: undefined })).toEqual({ tracing: true, automatic: true, hooks: 1 });
});

test('outside one (the twin, a CLI, a test): tracing off, the SDK in manual mode, no async hook', async () => {
  expect(await loadTracer({ AWS_EXECUTION_ENV: undefined, AWS_XRAY_MANUAL_MODE: undefined })).toEqual({
    tracing: false,
    automatic: false,
    hooks: 0,
  });
});

test('a mode set by hand is kept', async () => {
  expect(await loadTracer({ ...LAMBDA, AWS_XRAY_MANUAL_MODE: 'true' })).toMatchObject({ tracing: true, automatic: false, hooks: 0 });
});
