/**
 * SigV4 query authentication (presigned URLs), verified as S3 verifies it: the URL must carry every
 * authentication parameter, well-formed, for the endpoint's region and service, and the request no other
 * authentication (an Authorization header); it must not have expired
 * (X-Amz-Date + X-Amz-Expires, at most a week); it must be signed by a key the twin issued (a function's
 * role session, with its session token); every `x-amz-*` header sent and the host must be signed; and
 * the signature must be the one the signer's secret gives over the canonical request rebuilt from the
 * request as received (method, path, query, the signed headers' values, the payload hash S3 uses for
 * presigned requests). So a PUT whose Content-Type or Content-Length differs from the signed ones, or a
 * changed key, expiry or signature, is refused as S3 refuses it. Pure: the caller renders the refusal.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export interface QuerySignedRequest {
  method: string;
  /** the host the URL was signed for, e.g. <bucket>.s3.<region>.amazonaws.com (without a port: HTTPS's 443) */
  host: string;
  /** path and query string, raw, as received */
  path: string;
  /** lower-case names, as received */
  headers: Record<string, string>;
  /** the endpoint's service (its signing name, e.g. s3) and region: the credential scope must name both */
  service: string;
  region: string;
}

/** What the twin knows of a key it issued: the secret it signs with, and the session token that goes with it. */
export interface IssuedKey {
  secretAccessKey: string;
  sessionToken?: string;
}

export type PresignedCheck =
  | { ok: true; accessKeyId: string }
  | {
      ok: false;
      status: 400 | 403;
      /** S3's error code, e.g. SignatureDoesNotMatch */
      code: string;
      message: string;
      /** the further elements S3's error document carries, in order */
      fields: [string, string][];
    };

const ALGORITHM = 'AWS4-HMAC-SHA256';
/** SigV4's limit on a presigned URL's life (S3: "less than a week"). */
const MAX_EXPIRES_SECONDS = 604_800;
const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';
const EMPTY_SHA256 = createHash('sha256').update('').digest('hex');
const AUTH_PARAMETERS = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Signature', 'X-Amz-Date', 'X-Amz-SignedHeaders', 'X-Amz-Expires'];

const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

/** SigV4's `yyyyMMddTHHmmssZ`, or undefined when malformed or not a real date. */
export const parseAmzDate = (value: string): Date | undefined => {
  const m = AMZ_DATE.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && date.getUTCHours() === h ? date : undefined;
};

/** RFC 3986 percent-encoding as SigV4 wants it: everything but unreserved characters, in upper-case hex. */
const uriEncode = (text: string): string =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const decode = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
};

/** The raw query's parameters, decoded, in order; undefined when one has a malformed escape. */
const queryParameters = (query: string): [string, string][] | undefined => {
  const pairs: [string, string][] = [];
  for (const part of query.split('&').filter(Boolean)) {
    const at = part.indexOf('=');
    const name = decode(at < 0 ? part : part.slice(0, at));
    const value = decode(at < 0 ? '' : part.slice(at + 1));
    if (name === undefined || value === undefined) return undefined;
    pairs.push([name, value]);
  }
  return pairs;
};

/** Each path segment decoded and encoded again, slashes kept as they are (S3 does not normalise paths). */
const canonicalUri = (pathname: string): string =>
  pathname
    .split('/')
    .map((segment) => uriEncode(decode(segment) ?? segment))
    .join('/') || '/';

const canonicalQuery = (parameters: [string, string][]): string =>
  parameters
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');

const headerValue = (request: QuerySignedRequest, name: string): string =>
  (name === 'host' ? request.host : (request.headers[name] ?? '')).trim().replace(/\s+/g, ' ');

const hmac = (key: Buffer | string, text: string): Buffer => createHmac('sha256', key).update(text, 'utf8').digest();
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The canonical request of a query-signed request and its string to sign, as SigV4 defines them. */
const stringToSign = (
  request: QuerySignedRequest,
  parameters: [string, string][],
  signedHeaders: string[],
  amzDate: string,
  scope: string,
): { canonicalRequest: string; stringToSign: string } => {
  const at = request.path.indexOf('?');
  const pathname = at < 0 ? request.path : request.path.slice(0, at);
  const payloadHash =
    parameters.find(([name]) => name === 'X-Amz-Content-Sha256')?.[1] ?? (request.service === 's3' ? UNSIGNED_PAYLOAD : EMPTY_SHA256);
  const canonicalRequest = [
    request.method.toUpperCase(),
    canonicalUri(pathname),
    canonicalQuery(parameters),
    ...signedHeaders.map((name) => `${name}:${headerValue(request, name)}`),
    '',
    signedHeaders.join(';'),
    payloadHash,
  ].join('\n');
  return { canonicalRequest, stringToSign: [ALGORITHM, amzDate, scope, sha256(canonicalRequest)].join('\n') };
};

/** The signature of a string to sign with a secret, for a credential scope's date, region and service. */
const sign = (secretAccessKey: string, scope: { date: string; region: string; service: string }, text: string): string => {
  const key = [scope.date, scope.region, scope.service, 'aws4_request'].reduce<Buffer | string>(
    (k, part) => hmac(k, part),
    `AWS4${secretAccessKey}`,
  );
  return hmac(key, text).toString('hex');
};

/** Whether the request authenticates with query parameters (a presigned URL) rather than an Authorization header. */
export const isQuerySigned = (path: string): boolean => {
  const at = path.indexOf('?');
  return at >= 0 && /(?:^|&)X-Amz-(?:Signature|Credential|Algorithm)=/.test(path.slice(at + 1));
};

const refuse = (status: 400 | 403, code: string, message: string, fields: [string, string][] = []): PresignedCheck => ({
  ok: false,
  status,
  code,
  message,
  fields,
});

const parametersError = (message: string) => refuse(400, 'AuthorizationQueryParametersError', message);

/** ISO 8601 without milliseconds, as S3 writes times in its errors. */
const isoSeconds = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Verifies a presigned request: its parameters, its expiry at `now`, its signer (`issued`) and its signature. */
export const verifyPresigned = (
  request: QuerySignedRequest,
  options: { issued: (accessKeyId: string) => IssuedKey | undefined; now: Date },
): PresignedCheck => {
  const at = request.path.indexOf('?');
  const parameters = queryParameters(at < 0 ? '' : request.path.slice(at + 1));
  if (!parameters) return parametersError('The query string has a malformed percent-encoding.');
  const values = (name: string) => parameters.filter(([n]) => n === name).map(([, v]) => v);
  if (AUTH_PARAMETERS.some((name) => values(name).length !== 1)) {
    return parametersError(
      'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
    );
  }
  const get = (name: string) => values(name)[0]!;
  if (request.headers.authorization !== undefined) {
    return refuse(
      400,
      'InvalidArgument',
      'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
      [
        ['ArgumentName', 'Authorization'],
        ['ArgumentValue', request.headers.authorization],
      ],
    );
  }
  if (get('X-Amz-Algorithm') !== ALGORITHM) return parametersError(`X-Amz-Algorithm only supports "${ALGORITHM}"`);

  const [accessKeyId = '', date = '', region = '', service = '', terminal = '', ...extra] = get('X-Amz-Credential').split('/');
  if (!accessKeyId || extra.length > 0 || !terminal) {
    return parametersError(
      'Error parsing the X-Amz-Credential parameter; the Credential is mal-formed; expecting "<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request".',
    );
  }
  if (region !== request.region) {
    return refuse(
      400,
      'AuthorizationQueryParametersError',
      `Error parsing the X-Amz-Credential parameter; the region '${region}' is wrong; expecting '${request.region}'`,
      [['Region', request.region]],
    );
  }
  if (service !== request.service) {
    return parametersError(
      `Error parsing the X-Amz-Credential parameter; incorrect service "${service}". This endpoint belongs to "${request.service}".`,
    );
  }
  if (terminal !== 'aws4_request') {
    return parametersError(
      `Error parsing the X-Amz-Credential parameter; incorrect terminal "${terminal}". This endpoint uses "aws4_request".`,
    );
  }
  const amzDate = get('X-Amz-Date');
  const signedAt = parseAmzDate(amzDate);
  if (!signedAt) return parametersError(`X-Amz-Date must be in the ISO8601 Long Format "yyyyMMdd'T'HHmmss'Z'"`);
  if (date !== amzDate.slice(0, 8)) {
    return parametersError(
      `Error parsing the X-Amz-Credential parameter; incorrect date format "${date}". This date in the credential must be in the format "yyyyMMdd" and be X-Amz-Date's day.`,
    );
  }
  const expires = get('X-Amz-Expires');
  if (!/^-?\d+$/.test(expires)) return parametersError('X-Amz-Expires should be a number');
  if (Number(expires) < 0) return parametersError('X-Amz-Expires must be non-negative');
  if (Number(expires) > MAX_EXPIRES_SECONDS) {
    return parametersError(`X-Amz-Expires must be less than a week (in seconds) that is ${MAX_EXPIRES_SECONDS}`);
  }
  const expiresAt = new Date(signedAt.getTime() + Number(expires) * 1000);
  if (options.now.getTime() > expiresAt.getTime()) {
    return refuse(403, 'AccessDenied', 'Request has expired', [
      ['X-Amz-Expires', expires],
      ['Expires', isoSeconds(expiresAt)],
      ['ServerTime', isoSeconds(options.now)],
    ]);
  }

  const key = options.issued(accessKeyId);
  if (!key) {
    return refuse(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', [
      ['AWSAccessKeyId', accessKeyId],
    ]);
  }
  const token = values('X-Amz-Security-Token');
  if (key.sessionToken !== undefined && (token.length !== 1 || token[0] !== key.sessionToken)) {
    return refuse(400, 'InvalidToken', 'The provided token is malformed or otherwise invalid.', [['Token-0', token[0] ?? '']]);
  }

  const signedHeaders = get('X-Amz-SignedHeaders').split(';');
  const notSigned = [
    ...(signedHeaders.includes('host') ? [] : ['host']),
    ...Object.keys(request.headers).filter((name) => name.startsWith('x-amz-') && !signedHeaders.includes(name)),
  ];
  if (notSigned.length > 0) {
    return refuse(403, 'AccessDenied', 'There were headers present in the request which were not signed', [
      ['HeadersNotSigned', notSigned.join(', ')],
    ]);
  }

  const scope = `${date}/${region}/${service}/aws4_request`;
  const built = stringToSign(request, parameters, signedHeaders, amzDate, scope);
  const expected = sign(key.secretAccessKey, { date, region, service }, built.stringToSign);
  const provided = get('X-Amz-Signature');
  const [given, wanted] = [Buffer.from(provided), Buffer.from(expected)];
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    return refuse(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
      [
        ['AWSAccessKeyId', accessKeyId],
        ['StringToSign', built.stringToSign],
        ['SignatureProvided', provided],
        ['CanonicalRequest', built.canonicalRequest],
      ],
    );
  }
  return { ok: true, accessKeyId };
};
