/**
 * The test files' environment (jest.config.js): jest's node environment, plus the worker's database
 * (./worker-database.ts) for a file to borrow. jest loads this module once per worker, so what it holds outlives a file.
 */
import NodeEnvironment from 'jest-environment-node';
import { borrowWorkerDatabase } from './worker-database';

export default class TestEnvironment extends NodeEnvironment {
  override async setup(): Promise<void> {
    await super.setup();
    this.global.borrowWorkerDatabase = borrowWorkerDatabase;
  }
}
