/**
 * Presigned uploads to the files bucket. The URL is signed by the function's role (its PutObject grant under one
 * prefix: lib/stacks/service-resources.ts) for one key, and binds the body's length and type: S3 refuses an upload
 * whose Content-Length or Content-Type differs from the signed ones (SignatureDoesNotMatch), so a client cannot
 * put a larger file, or another kind, than the one the API accepted. A browser's PUT sends Content-Length from
 * its body by itself; the answer names the one header the client must set.
 *
 * Signed as the SDK's getSignedUrl signs a PutObject (S3's SigV4 query signature: the path not escaped twice, an
 * unsigned payload, x-id=PutObject), with the signer alone (../aws/presigned-url.ts).
 */
import { presignedUrl } from '#core/aws/presigned-url';
import { env, ENV, requireEnv } from '#core/config';

export interface Upload {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
  expires_at: string;
}

export interface UploadRequest {
  key: string;
  contentType: string;
  sizeBytes: number;
  expiresInSeconds: number;
}

export type Presigner = (request: UploadRequest) => Promise<Upload>;

/** S3 signs these headers as well as the host: the upload must send exactly their values. */
const BOUND_HEADERS = new Set(['content-length', 'content-type']);

/** A key's path as the S3 client writes it: each segment URI-encoded, `!'()*` too, the slashes kept. */
const objectPath = (key: string) =>
  key
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');

export const s3Presigner = (bucket = requireEnv(ENV.filesBucket), now: () => Date = () => new Date()): Presigner => {
  const region = requireEnv(ENV.awsRegion);
  // the bucket's virtual-hosted address, or a stand-in's own endpoint (AWS_ENDPOINT_URL_S3) path-style, as the client addresses it
  const endpoint = env(ENV.s3Endpoint);
  const at = endpoint ? new URL(endpoint) : undefined;
  return async ({ key, contentType, sizeBytes, expiresInSeconds }) => {
    const issued = now();
    const hostname = at ? at.hostname : `${bucket}.s3.${region}.amazonaws.com`;
    const host = at?.port ? `${hostname}:${at.port}` : hostname;
    const url = await presignedUrl(
      {
        method: 'PUT',
        protocol: at ? at.protocol : 'https:',
        hostname,
        ...(at?.port && { port: Number(at.port) }),
        path: at ? `/${bucket}/${objectPath(key)}` : `/${objectPath(key)}`,
        query: { 'x-id': 'PutObject' },
        headers: { host, 'content-type': contentType, 'content-length': String(sizeBytes), 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD' },
      },
      { service: 's3', region, expiresInSeconds, signableHeaders: BOUND_HEADERS, signingDate: issued, uriEscapePath: false },
    );
    return {
      url,
      method: 'PUT',
      headers: { 'content-type': contentType },
      expires_at: new Date(issued.getTime() + expiresInSeconds * 1000).toISOString(),
    };
  };
};
