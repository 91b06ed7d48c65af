/**
 * The twin's public S3 endpoint: where a user on this machine follows the presigned URLs the service hands
 * out. A presigned URL names the bucket's AWS host (`https://<bucket>.s3.<region>.amazonaws.com/<key>?X-Amz-…`),
 * which resolves to nothing here; the twin's API gateway maps every such URL of a bucket it serves in a
 * function's answer (the Location header, JSON strings) to `http://127.0.0.1:<port>/<bucket>/<key>?<same query>`
 * on this plain-HTTP server (the twin's "DNS" for the user: publicUrls, withPublicUrls). Each request is then
 * handed to the AWS edge's own handler as the virtual-hosted request it was signed as (./aws-edge.ts): the
 * signature and expiry verified as S3 verifies them, the signer's IAM policy, fauxqs behind, the Object
 * Created event after a PUT. Around it, the bucket's CORS configuration as S3 applies it (./s3-cors.ts).
 * Only presigned requests are served: the buckets block public access, so anything else is AccessDenied.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { PlanBucket } from '../assembly/plan';
import { awsRequestOf, headersOf, readBody, reply, type AwsEdgeHandler, type EdgeAnswer } from './edge';
import { s3Error } from '../iam/requests';
import { corsHeaders, preflight } from './s3-cors';
import { isQuerySigned } from '../iam/sigv4';

/** The AWS host a bucket's presigned URLs name, as the SDK makes them (virtual-hosted, regional). */
const awsHostOf = (bucket: string, region: string): string => `${bucket}.s3.${region}.amazonaws.com`;

/**
 * The public endpoint's URL for a presigned URL of one of the buckets, or undefined for any other string:
 * `https://<bucket>.s3.<region>.amazonaws.com/<key>?…X-Amz-Signature…` → `<endpoint>/<bucket>/<key>?…`.
 */
export const publicUrls =
  (endpoint: string, buckets: string[], region: string) =>
  (text: string): string | undefined => {
    if (!text.startsWith('https://')) return undefined;
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return undefined;
    }
    const bucket = buckets.find((b) => url.host === awsHostOf(b, region));
    if (!bucket || !url.searchParams.has('X-Amz-Signature')) return undefined;
    return `${endpoint}/${bucket}${url.pathname}${url.search}`;
  };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A function's answer with every presigned URL `map` knows replaced: the Location header and the strings of a JSON body. */
export const withPublicUrls = (
  answer: APIGatewayProxyStructuredResultV2,
  map: (text: string) => string | undefined,
): APIGatewayProxyStructuredResultV2 => {
  let changed = false;
  const mapped = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const url = map(value);
      if (url === undefined) return value;
      changed = true;
      return url;
    }
    if (Array.isArray(value)) return value.map(mapped);
    return isObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapped(v)])) : value;
  };
  const headers = answer.headers && (mapped(answer.headers) as typeof answer.headers);
  const contentType = Object.entries(answer.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  let body = answer.body;
  // a body without an AWS host holds no presigned URL: most answers are not parsed at all
  if (body?.includes('.amazonaws.com') && !answer.isBase64Encoded && /\bjson\b/i.test(String(contentType ?? ''))) {
    try {
      const json = mapped(JSON.parse(body));
      if (changed) body = JSON.stringify(json);
    } catch {
      // not JSON after all: answered as the function wrote it
    }
  }
  return changed ? { ...answer, ...(headers && { headers }), ...(body !== undefined && { body }) } : answer;
};

export interface S3PublicOptions {
  region: string;
  account: string;
  buckets: Pick<PlanBucket, 'name' | 'cors'>[];
  /** the AWS edge's handler: the same verification, IAM and backends as every AWS call */
  handle: AwsEdgeHandler;
  log?: (line: string) => void;
}

export interface S3Public {
  /** http://127.0.0.1:<port> */
  url: string;
  stop: () => Promise<void>;
}

export const startS3Public = async (options: S3PublicOptions): Promise<S3Public> => {
  const { region, account, handle, log = () => undefined } = options;

  const serve = async (req: http.IncomingMessage): Promise<EdgeAnswer> => {
    const raw = req.url ?? '/';
    const at = raw.indexOf('?');
    const [pathname, query] = at < 0 ? [raw, ''] : [raw.slice(0, at), raw.slice(at)];
    const [, first = '', ...rest] = pathname.split('/');
    // bucket names are lower-case letters, digits, hyphens and dots: never escaped
    const bucket = options.buckets.find((b) => b.name === first);
    const method = req.method ?? 'GET';
    // what the edge sees: the request as it was signed, to the bucket's own host
    const host = awsHostOf(bucket?.name ?? first, region);
    const path = `/${rest.join('/')}${query}`;
    // its Host header (this endpoint's) is not what was signed: the edge signs and forwards with `host`
    const headers = headersOf(req);
    const error = (status: number, code: string, message: string, fields: [string, string][] = []) =>
      s3Error({ method, host, path, headers }, { status, code, message, fields });
    if (!bucket) return error(404, 'NoSuchBucket', 'The specified bucket does not exist', [['BucketName', first]]);

    if (method === 'OPTIONS') {
      const answer = preflight(bucket.cors, {
        origin: headers.origin,
        method: headers['access-control-request-method'],
        headers: headers['access-control-request-headers'],
      });
      return answer.allowed
        ? { status: 200, headers: answer.headers, body: '' }
        : error(answer.status, answer.code, answer.message, answer.fields);
    }
    const cors = corsHeaders(bucket.cors, headers.origin, method);
    const body = await readBody(req);
    // the bucket blocks public access: a request that is not presigned is anonymous
    const answer = isQuerySigned(path)
      ? await handle(awsRequestOf(account, { host, method, path, headers, body })!, req.socket.remoteAddress ?? '127.0.0.1')
      : error(403, 'AccessDenied', 'Access Denied');
    return { ...answer, headers: { ...answer.headers, ...cors } };
  };

  const server = http.createServer((req, res) => {
    serve(req).then(
      (answer) => reply(req, res, answer),
      (failure: unknown) => {
        log(`[s3-public] ${req.method} ${req.url}: ${(failure as Error).stack ?? String(failure)}`);
        if (!res.headersSent)
          reply(req, res, { status: 500, headers: { 'content-type': 'text/plain' }, body: 'the twin failed to serve this request' });
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
