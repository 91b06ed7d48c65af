/**
 * SQS and S3 on this machine (fauxqs): the queues of the synthesized stacks with their attributes
 * (visibility timeout, retention, redrive to their DLQ) and the buckets, under the names the twin gives
 * them. Functions reach it only through the AWS edge (./aws-edge.ts); the twin itself and tests may use
 * its endpoint directly, as an operator with full access. State persists in the twin folder.
 */
import net from 'node:net';
import type { PlanQueue } from '../assembly/plan';

export interface LocalAws {
  /** fauxqs's own endpoint (path-style S3, SQS by queue URL), for the twin and operators */
  endpoint: string;
  stop: () => Promise<void>;
}

/**
 * fauxqs's startFauxqs listens on 0.0.0.0 and offers no option; a local emulator holding case data
 * must not be reachable from the network, so its listen call is pinned to loopback while it starts.
 */
const listenOnLoopbackOnly = (): (() => void) => {
  const original = net.Server.prototype.listen;
  net.Server.prototype.listen = function patched(this: net.Server, ...args: unknown[]) {
    const [first] = args;
    if (first && typeof first === 'object' && 'host' in first) (first as { host?: string }).host = '127.0.0.1';
    return (original as (...a: unknown[]) => net.Server).apply(this, args);
  } as typeof original;
  return () => {
    net.Server.prototype.listen = original;
  };
};

export const startLocalAws = async (options: {
  dataDir?: string;
  region: string;
  queues: PlanQueue[];
  buckets: string[];
}): Promise<LocalAws> => {
  const { startFauxqs } = await import('fauxqs');
  const restore = listenOnLoopbackOnly();
  let server: Awaited<ReturnType<typeof startFauxqs>>;
  try {
    server = await startFauxqs({
      port: 0,
      logger: false,
      defaultRegion: options.region,
      ...(options.dataDir && { dataDir: options.dataDir }),
    });
  } finally {
    restore();
  }
  // dead-letter queues first: a redrive policy names a queue that must exist
  const redrives = (q: PlanQueue) => q.attributes.RedrivePolicy !== undefined;
  server.setup({
    queues: options.queues.filter((q) => !redrives(q)).map((q) => ({ name: q.name, attributes: q.attributes })),
    buckets: options.buckets,
  });
  server.setup({ queues: options.queues.filter(redrives).map((q) => ({ name: q.name, attributes: q.attributes })) });
  return { endpoint: `http://127.0.0.1:${server.port}`, stop: () => server.stop() };
};
