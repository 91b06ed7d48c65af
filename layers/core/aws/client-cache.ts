/**
 * The process's SDK clients, cached (its own module, so a function pays only for the clients it loads),
 * each captured by the tracer when made: every call it sends is a subsegment of the trace (namespace aws).
 */
import { tracer } from '#core/tracer';

const clients = new Map<string, unknown>();

/**
 * One client per service, options and endpoint: a process that starts a second twin (the bench, a test
 * restarting the twin) gets clients for the new endpoints instead of the first twin's.
 */
export const cachedClient = <T>(key: string, make: () => T): T => {
  let client = clients.get(key) as T | undefined;
  if (client === undefined) {
    client = tracer.captureAWSv3Client(make());
    clients.set(key, client);
  }
  return client;
};
