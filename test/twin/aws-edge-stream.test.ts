/**
 * The AWS edge passes a stand-in's answer on as it comes, as AWS sends it: a streamed answer's first part reaches the
 * caller long before its last (buffered, a 30 s ConverseStream answer's first token came with its last, and the
 * gateway's first-token bound left a healthy region). A caller that gives up ends the stand-in's answer too.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { awsEdgeHandler, startAwsEdge, type AwsEdge, type AwsEdgeOptions } from '../../lib/twin/aws/edge';
import { loadOrCreateTls, type TwinTls } from '../../lib/twin/aws/tls';

const HOST = 'bedrock-runtime.us-east-1.amazonaws.com';
const GAP_MS = 400;

let dir: string;
let tls: TwinTls;
let backend: http.Server;
let edge: AwsEdge;
/** resolves when the backend's answer was closed before its end */
let backendClosedEarly: Promise<boolean>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'twin-edge-'));
  tls = await loadOrCreateTls(dir, ['*.us-east-1.amazonaws.com']);
  backend = http.createServer((_req, res) => {
    backendClosedEarly = new Promise((resolve) => {
      res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
      res.write('first part;');
      const later = setTimeout(() => res.end('last part'), GAP_MS);
      res.on('close', () => {
        clearTimeout(later);
        resolve(!res.writableFinished);
      });
    });
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
  const unused = { url: 'http://127.0.0.1:9' };
  edge = await startAwsEdge({
    tls,
    account: '000000000000',
    // an operator's call (no key the twin issued): no IAM decision, forwarded as it is
    handle: awsEdgeHandler({
      backends: {
        'bedrock-runtime': { url },
        ...Object.fromEntries(['sqs', 's3', 'bedrock', 'cognito-idp', 'secretsmanager', 'lambda', 'email', 'ssm'].map((s) => [s, unused])),
      } as AwsEdgeOptions['backends'],
      sessions: new Map(),
      decide: () => ({ allowed: true }) as never,
      secretArnOf: () => undefined,
    }),
  });
});
afterAll(async () => {
  await edge.stop();
  await new Promise((resolve) => backend.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const converseStream = () =>
  https.request({
    host: '127.0.0.1',
    port: edge.port,
    servername: HOST,
    ca: tls.caPem,
    method: 'POST',
    path: '/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream',
    headers: { host: HOST, 'content-type': 'application/json' },
  });

test("a streamed answer's parts reach the caller as the stand-in sends them", async () => {
  const started = performance.now();
  const parts = await new Promise<{ text: string; atMs: number }[]>((resolve, reject) => {
    const req = converseStream();
    req.on('response', (res) => {
      const seen: { text: string; atMs: number }[] = [];
      res.on('data', (chunk: Buffer) => seen.push({ text: chunk.toString(), atMs: performance.now() - started }));
      res.on('end', () => resolve(seen));
    });
    req.on('error', reject);
    req.end('{}');
  });
  expect(parts.map((p) => p.text).join('')).toBe('first part;last part');
  expect(parts[0]!.text).toBe('first part;');
  expect(parts.at(-1)!.atMs - parts[0]!.atMs).toBeGreaterThanOrEqual(GAP_MS - 100);
});

test("a caller that gives up mid-answer ends the stand-in's answer", async () => {
  await new Promise<void>((resolve, reject) => {
    const req = converseStream();
    req.on('response', (res) => res.once('data', () => (req.destroy(), resolve())));
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    req.end('{}');
  });
  expect(await backendClosedEarly).toBe(true);
});
