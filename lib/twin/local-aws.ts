/**
 * SQS and S3 on this machine (fauxqs), laid out as the CDK stacks lay them out in AWS: each manifest
 * queue with its DLQ and redrive policy, and the files bucket. State persists in the twin folder.
 */
import net from 'node:net';
import { queues, visibilityTimeoutSeconds, type QueueName } from '../manifest';

export const FILES_BUCKET = 'ias-files';
const ACCOUNT = '000000000000';
const REGION = 'us-east-1';

export interface LocalQueue { url: string; arn: string; dlqUrl: string; dlqArn: string }

export interface LocalAws {
  endpoint: string;
  queues: Record<QueueName, LocalQueue>;
  bucket: string;
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

export const startLocalAws = async (options: { dataDir?: string; visibilityTimeoutSeconds?: number } = {}): Promise<LocalAws> => {
  const { startFauxqs } = await import('fauxqs');
  const restore = listenOnLoopbackOnly();
  let server: Awaited<ReturnType<typeof startFauxqs>>;
  try {
    server = await startFauxqs({ port: 0, logger: false, defaultRegion: REGION, ...(options.dataDir && { dataDir: options.dataDir }) });
  } finally {
    restore();
  }
  const endpoint = `http://127.0.0.1:${server.port}`;
  // The SDK sends each call to its queue URL's host, and fauxqs's default host does not resolve here.
  const urlOf = (name: string) => `${endpoint}/${ACCOUNT}/${name}`;
  const arnOf = (name: string) => `arn:aws:sqs:${REGION}:${ACCOUNT}:${name}`;
  const names = Object.keys(queues) as QueueName[];
  server.setup({ queues: names.map((q) => ({ name: `ias-${q}-dlq` })), buckets: [FILES_BUCKET] });
  server.setup({
    queues: names.map((q) => ({
      name: `ias-${q}`,
      attributes: {
        VisibilityTimeout: String(options.visibilityTimeoutSeconds ?? visibilityTimeoutSeconds(q)),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: arnOf(`ias-${q}-dlq`), maxReceiveCount: queues[q].maxReceiveCount }),
      },
    })),
  });
  const layout = Object.fromEntries(names.map((q) => [q, {
    url: urlOf(`ias-${q}`), arn: arnOf(`ias-${q}`), dlqUrl: urlOf(`ias-${q}-dlq`), dlqArn: arnOf(`ias-${q}-dlq`),
  }])) as Record<QueueName, LocalQueue>;
  return { endpoint, queues: layout, bucket: FILES_BUCKET, stop: () => server.stop() };
};
