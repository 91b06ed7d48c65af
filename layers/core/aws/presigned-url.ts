/**
 * A SigV4 query-signed URL, signed with the function's own role credentials (AWS_ACCESS_KEY_ID … as Lambda hands
 * them): S3's presigned uploads (../ingestion/presign.ts) and RDS IAM auth tokens (./rds-auth-token.ts). The
 * signer alone, as the SDK's presigners use it inside, without their clients and configuration loaders, which
 * weighed about 260 kB in an upload function and 23 kB in every function that opens a database connection
 * (`npm run bench -- bundles`); test/twin/sigv4.test.ts and test/twin/rds-auth-token.test.ts hold each URL
 * against the SDK's own, byte for byte.
 */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { formatUrl } from '@aws-sdk/core/util';
import { HttpRequest } from '@smithy/core/protocols';
import { SignatureV4 } from '@smithy/signature-v4';
import { env, ENV, requireEnv } from '#core/config';

export interface UrlToSign {
  method: 'GET' | 'PUT';
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
}

export interface Signing {
  service: string;
  region: string;
  expiresInSeconds: number;
  /** headers signed beside the host, which the request must then send with these values */
  signableHeaders?: Set<string>;
  signingDate?: Date;
  /** S3 signs the path as sent; other services escape it once more (SigV4's canonical URI) */
  uriEscapePath?: boolean;
}

/**
 * SHA-256 and HMAC-SHA-256 as the signer takes them, over node:crypto. The SDK's own (@smithy/core/checksum, or its
 * credential chain's fromEnv) would each bring a module index of about 20 kB into every function for one class.
 */
type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: SourceData): string | Uint8Array =>
  typeof data === 'string'
    ? data
    : data instanceof ArrayBuffer
      ? new Uint8Array(data)
      : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);

class Sha256 {
  private readonly hash: Hash | Hmac;

  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }

  update(data: SourceData): void {
    this.hash.update(bytes(data));
  }

  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}

/** The function role's credentials as Lambda hands them (and the twin's runtime does): its environment. */
const roleCredentials = async () => ({
  accessKeyId: requireEnv(ENV.awsAccessKeyId),
  secretAccessKey: requireEnv(ENV.awsSecretAccessKey),
  // a role session's always; long-term keys (a tool's) have none
  ...(env(ENV.awsSessionToken) !== undefined && { sessionToken: env(ENV.awsSessionToken) }),
});

export const presignedUrl = async (request: UrlToSign, signing: Signing): Promise<string> => {
  const signer = new SignatureV4({
    service: signing.service,
    region: signing.region,
    credentials: roleCredentials,
    sha256: Sha256,
    uriEscapePath: signing.uriEscapePath ?? true,
    applyChecksum: false,
  });
  const signed = await signer.presign(new HttpRequest(request), {
    expiresIn: signing.expiresInSeconds,
    ...(signing.signableHeaders && { signableHeaders: signing.signableHeaders }),
    ...(signing.signingDate && { signingDate: signing.signingDate }),
  });
  return formatUrl(signed);
};
