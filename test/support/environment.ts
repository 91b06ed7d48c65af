/**
 * The test files' environment (jest.config.js): jest's node environment, plus the worker's database
 * (./worker-database.ts) for a file to borrow. jest loads this module once per worker, so what it holds outlives a file.
 */
import asyncHooks from 'node:async_hooks';
import NodeEnvironment from 'jest-environment-node';
import { borrowWorkerDatabase } from './worker-database';

/**
 * The async hooks the running file has made, disabled at its teardown. The X-Ray SDK under the Powertools Tracer
 * (layers/core/tracer.ts) enables one with a destroy callback as it loads in a Lambda environment (a file that sets
 * one up, as the tracing tests do; elsewhere it loads in manual mode, layers/core/xray-mode.ts), and jest loads it
 * afresh for every file: left on, a worker that had run 30 such files tracked each promise 30 times over.
 * `node:async_hooks` is the worker's own module, shared by its files, so its `createHook` is wrapped once here.
 */
const fileHooks: asyncHooks.AsyncHook[] = [];
const createHook = asyncHooks.createHook;
asyncHooks.createHook = (callbacks) => {
  const hook = createHook(callbacks);
  fileHooks.push(hook);
  return hook;
};

export default class TestEnvironment extends NodeEnvironment {
  override async setup(): Promise<void> {
    await super.setup();
    this.global.borrowWorkerDatabase = borrowWorkerDatabase;
  }

  override async teardown(): Promise<void> {
    await super.teardown();
    for (const hook of fileHooks.splice(0)) hook.disable();
  }
}
