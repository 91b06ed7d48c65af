/** Both projects' global teardown (jest.config.js): the worker's database, held in this process in a run in band. */
export { closeWorkerDatabase as default } from './worker-database';
