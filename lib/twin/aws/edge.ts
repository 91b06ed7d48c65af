/**
 * The twin's AWS front door. Inside a function's environment every AWS hostname (sqs., s3., bedrock-
 * runtime., cognito-idp., secretsmanager. …amazonaws.com) leads here, over TLS with the twin's own
 * certificate (HTTP/1.1 and HTTP/2, as the SDK speaks each). For every call it finds who signed it (the
 * access key of the calling function's role), works out the IAM permissions the call needs, has the twin's IAM
 * decide them (../iam/decisions.ts: that role's synthesized policy and the resource's own), and either answers the
 * service's AccessDenied exactly as AWS does or forwards the call to the local stand-in behind it
 * (fauxqs for SQS and S3, the Bedrock stand-in, the identity provider, the secrets store). Every
 * decision is recorded: `npm run iam-report` compares what was used with what was granted.
 *
 * A presigned S3 request (query authentication) is verified as S3 verifies it first (../iam/sigv4.ts: signature,
 * expiry, a key the twin issued); what S3 adds to an answer (the response-* overrides of a GET) is added to
 * fauxqs's; an object put in a bucket that sends its events to EventBridge is announced (./s3-events.ts).
 * The same handler serves the public S3 endpoint (./s3-public.ts), so both ways in behave alike.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import type { DeploymentIam, RoleSession } from '../iam/decisions';
import {
  accessDenied,
  requiredPermissions,
  s3Error,
  serviceOfHost,
  signingAccessKey,
  type AwsHttpRequest,
  type AwsService,
} from '../iam/requests';
import { objectCreatedBy, type ObjectCreated } from './s3-events';
import { isQuerySigned, verifyPresigned } from '../iam/sigv4';

/** A backend: a local HTTP server, or an in-process handler (the secrets store). */
type Backend =
  | { url: string; keepHost?: boolean }
  | { handle: (request: AwsHttpRequest) => Promise<{ status: number; headers: Record<string, string>; body: string }> };

export interface AwsEdgeOptions {
  backends: Record<AwsService, Backend>;
  /** the functions' role sessions by access key: who signed a call */
  sessions: ReadonlyMap<string, RoleSession>;
  /** the decision on a function's call (recorded there) */
  decide: DeploymentIam['decideCall'];
  secretArnOf: (nameOrArn: string) => string | undefined;
  /** after S3 has answered a PutObject with 200: what S3 and EventBridge do next */
  objectCreated?: (created: ObjectCreated) => Promise<void>;
  log?: (line: string) => void;
  /** the clock presigned URLs expire by (default the system's) */
  now?: () => Date;
}

/**
 * What the edge answers a call with. A stand-in's answer is passed on as it comes (`Readable`), as AWS sends it: a
 * ConverseStream answer's parts reach the function one by one, so its first-token and idle bounds see what they would
 * see in AWS (buffered, a 30 s answer's first token arrived with its last).
 */
export interface EdgeAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer | Readable;
}

/** An answer the edge will not send after all: its stream is read to the end and dropped, so its connection is freed. */
const discard = (answer: EdgeAnswer) => {
  if (typeof answer.body === 'object' && !Buffer.isBuffer(answer.body)) answer.body.resume();
};

/** The edge's handling of one AWS call from `sourceIp`, whichever server received it. */
export type AwsEdgeHandler = (request: AwsHttpRequest, sourceIp: string) => Promise<EdgeAnswer>;

export interface AwsEdge {
  port: number;
  stop: () => Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'host', 'http2-settings']);

/** A request's whole body. */
export const readBody = (req: http.IncomingMessage | http2.Http2ServerRequest): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** A request's headers by lower-case name, repeated ones joined (HTTP/2's pseudo-headers left out). */
export const headersOf = (req: http.IncomingMessage | http2.Http2ServerRequest): Record<string, string> =>
  Object.fromEntries(
    Object.entries(req.headers)
      .filter(([k]) => !k.startsWith(':'))
      .map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(',') : String(v ?? '')]),
  );

/** The backend's answer once its status and headers have come; its body streams on. */
const forward = (backend: { url: string; keepHost?: boolean }, request: AwsHttpRequest): Promise<EdgeAnswer> =>
  new Promise((resolve, reject) => {
    const target = new URL(backend.url);
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([k]) => !HOP_BY_HOP.has(k)));
    const out = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.path,
        headers: { ...headers, host: backend.keepHost ? request.host : target.host, 'content-length': String(request.body.length) },
      },
      (res) => {
        // an error before the answer is piped on destroys it, and the pipe then ends the caller's answer too
        res.on('error', () => undefined);
        resolve({
          status: res.statusCode ?? 502,
          headers: Object.fromEntries(
            Object.entries(res.headers)
              .filter(([k]) => !HOP_BY_HOP.has(k))
              .map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v ?? '')]),
          ),
          body: res,
        });
      },
    );
    out.on('error', reject);
    out.end(request.body);
  });

/** The query parameters with which S3 replaces headers of an object's answer (GetObject's Response* members). */
const RESPONSE_OVERRIDES: Record<string, string> = {
  'response-content-type': 'content-type',
  'response-content-language': 'content-language',
  'response-expires': 'expires',
  'response-cache-control': 'cache-control',
  'response-content-disposition': 'content-disposition',
  'response-content-encoding': 'content-encoding',
};

/** S3's answer to a successful signed GET or HEAD of an object carries the headers its response-* parameters name. */
const withResponseOverrides = (request: AwsHttpRequest, answer: EdgeAnswer): EdgeAnswer => {
  const at = request.path.indexOf('?');
  if (request.service !== 's3' || at < 0 || !['GET', 'HEAD'].includes(request.method.toUpperCase()) || answer.status >= 300) return answer;
  const overrides = [...new URLSearchParams(request.path.slice(at + 1))].filter(([name]) => name in RESPONSE_OVERRIDES);
  if (overrides.length === 0) return answer;
  return {
    ...answer,
    headers: { ...answer.headers, ...Object.fromEntries(overrides.map(([name, value]) => [RESPONSE_OVERRIDES[name]!, value])) },
  };
};

/** The call an AWS hostname names (its service and region), or undefined for a host that is no AWS endpoint of the twin's. */
export const awsRequestOf = (
  account: string,
  request: { host: string; method: string; path: string; headers: Record<string, string>; body: Buffer },
): AwsHttpRequest | undefined => {
  const located = serviceOfHost(request.host);
  return located && { ...request, service: located.service, region: located.region, account };
};

export const awsEdgeHandler = (options: AwsEdgeOptions): AwsEdgeHandler => {
  const { backends, sessions, decide, log = () => undefined, now = () => new Date() } = options;

  // a geographic inference profile's request goes to one of its destination regions, in turn here (Bedrock picks
  // by capacity): the foundation-model grant is checked there, as AWS does, and over a run every region is seen
  let routed = 0;
  const nextDestination = (destinations: readonly string[]) => destinations[routed++ % destinations.length]!;

  return async (request, sourceIp) => {
    let identity: RoleSession | undefined;
    if (request.service === 's3' && isQuerySigned(request.path)) {
      // a presigned URL carries its signer's permissions: only a key the twin issued, signed as S3 checks it
      const check = verifyPresigned({ ...request, service: 's3' }, { issued: (accessKeyId) => sessions.get(accessKeyId), now: now() });
      if (!check.ok) {
        log(`[aws-edge] ${request.method} https://${request.host}${request.path.replace(/\?.*$/, '')}: ${check.code} (${check.message})`);
        return s3Error(request, check);
      }
      identity = sessions.get(check.accessKeyId);
    } else {
      const accessKey = signingAccessKey(request);
      identity = accessKey ? sessions.get(accessKey) : undefined;
    }
    const needed = requiredPermissions(request, { secretArnOf: options.secretArnOf, destinationRegion: nextDestination });
    /** the role's decision on one permission, recorded; undefined when allowed, else the service's AccessDenied */
    const check = (caller: RoleSession, { action, resource }: { action: string; resource: string }) => {
      const decision = decide(caller, request.service, { action, resource });
      if (decision.allowed) return undefined;
      return accessDenied(request, { principalArn: caller.principalArn, action, resource, reason: decision.reason });
    };
    // a key the twin did not issue to a function is the operator's (tests, the CLI): not a function's call
    if (needed !== 'unauthenticated' && identity) {
      for (const permission of needed) {
        const denial = check(identity, permission);
        if (denial) return denial;
      }
    }
    const backend = backends[request.service];
    const answer = withResponseOverrides(request, 'handle' in backend ? await backend.handle(request) : await forward(backend, request));
    // S3 tells a caller that a key is missing (404) only if it may list the bucket; otherwise it answers 403
    if (
      answer.status === 404 &&
      identity &&
      request.service === 's3' &&
      needed !== 'unauthenticated' &&
      needed.some((p) => p.action === 's3:GetObject')
    ) {
      const bucketArn = needed[0]!.resource.replace(/\/.*$/, '');
      const denial = check(identity, { action: 's3:ListBucket', resource: bucketArn });
      if (denial) {
        discard(answer);
        return denial;
      }
    }
    const created = options.objectCreated && objectCreatedBy(request, needed, answer, sourceIp);
    if (created) await options.objectCreated!(created);
    return answer;
  };
};

/** Answers an HTTP/1.1 or HTTP/2 request with the edge's answer (no body for a HEAD). */
export const reply = (
  req: http.IncomingMessage | http2.Http2ServerRequest,
  res: http.ServerResponse | http2.Http2ServerResponse,
  { status, headers, body }: EdgeAnswer,
) => {
  const out = res as http.ServerResponse; // the HTTP/2 compatibility response takes the same calls
  out.writeHead(status, headers);
  if (typeof body === 'object' && !Buffer.isBuffer(body)) {
    if (req.method === 'HEAD') {
      discard({ status, headers, body });
      out.end();
    } else pipeline(body, out, () => undefined); // a caller that gave up ends the stand-in's answer too
  } else if (req.method === 'HEAD') out.end();
  else out.end(body);
};

/** The edge's TLS server on 127.0.0.1: every AWS hostname's calls, through `handle`. */
export const startAwsEdge = async (options: {
  tls: { keyPem: string; certPem: string };
  account: string;
  handle: AwsEdgeHandler;
  log?: (line: string) => void;
}): Promise<AwsEdge> => {
  const { account, handle, log = () => undefined } = options;
  const serve = async (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse) => {
    const host = String(req.headers[':authority'] ?? req.headers.host ?? '').replace(/:\d+$/, '');
    const request = awsRequestOf(account, {
      host,
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: headersOf(req),
      body: await readBody(req),
    });
    if (!request)
      return reply(req, res, { status: 404, headers: { 'content-type': 'text/plain' }, body: `no AWS service at ${host} in the twin` });
    reply(req, res, await handle(request, req.socket.remoteAddress ?? '127.0.0.1'));
  };

  const server = http2.createSecureServer({ key: options.tls.keyPem, cert: options.tls.certPem, allowHTTP1: true }, (req, res) => {
    serve(req, res).catch((error: unknown) => {
      log(`[aws-edge] ${req.method} ${req.url}: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json', 'x-amzn-requestid': randomUUID() });
        res.end(JSON.stringify({ message: 'the twin failed to serve this call' }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('secureConnection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return {
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
};
