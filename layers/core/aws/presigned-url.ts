/**
 * A SigV4 query-signed URL, signed with the function's own role credentials (AWS_ACCESS_KEY_ID … as Lambda hands
 * them): S3's presigned uploads (../ingestion/presign.ts) and RDS IAM auth tokens (./rds-auth-token.ts). The
 * signer alone, as the SDK's presigners use it inside, without their clients and configuration loaders, which
 * weighed about 260 kB in an upload function and 20 kB in every function that opens a database connection
 * (`npm run bench -- bundles`); test/twin/sigv4.test.ts and test/twin/rds-auth-token.test.ts hold each URL
 * against the SDK's own, byte for byte.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { formatUrl } from '@aws-sdk/core/util';
import { Sha256 } from '@smithy/core/checksum';
import { HttpRequest } from '@smithy/core/protocols';
import { SignatureV4 } from '@smithy/signature-v4';

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

export const presignedUrl = async (request: UrlToSign, signing: Signing): Promise<string> => {
  const signer = new SignatureV4({
    service: signing.service,
    region: signing.region,
    credentials: fromEnv(),
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
