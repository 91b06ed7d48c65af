/**
 * SDK clients and HTTPS requests of the twin's own process (the Lambda service polling queues for its
 * functions, tests, operator commands) to the AWS edge: the request names the real AWS host (SNI, Host,
 * signature) and the connection goes to the edge, verified against the twin's CA — what the functions'
 * runtime does with its routes, for a process that has none.
 */
import https from 'node:https';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { NodeHttpHandler } from '@smithy/node-http-handler';

export interface EdgeAddress {
  port: number;
  caPem: string;
}

const edgeAgent = (edge: EdgeAddress): https.Agent => {
  class EdgeAgent extends https.Agent {
    override createConnection(options: tls.ConnectionOptions): Duplex {
      return tls.connect({
        ...options,
        host: '127.0.0.1',
        port: edge.port,
        ca: edge.caPem,
        servername: options.servername ?? options.host,
        ALPNProtocols: ['http/1.1'],
      });
    }
  }
  return new EdgeAgent({ keepAlive: true });
};

/** Client configuration for an AWS SDK v3 client that talks to the twin's AWS edge. */
export const edgeClientConfig = (
  edge: EdgeAddress,
  region: string,
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string },
) => ({
  region,
  credentials,
  requestHandler: new NodeHttpHandler({ httpsAgent: edgeAgent(edge) }),
});

/** A request to an https URL of an AWS host (a presigned S3 URL) through the edge: status, headers and body. */
export const edgeRequest = (
  edge: EdgeAddress,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> =>
  new Promise((resolve, reject) => {
    const req = https.request(url, { method: options.method ?? 'GET', headers: options.headers, agent: edgeAgent(edge) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
