/**
 * Presigned URLs verified as S3 verifies them (lib/twin/iam/sigv4.ts), against URLs the AWS SDK's getSignedUrl
 * produced: the service's upload URL (layers/core/ingestion/presign.ts: content-length and content-type
 * signed) and the file viewer's GET URL (response-content-* overrides). A changed header, path, query,
 * signature, expiry or signer is refused with S3's error code.
 */
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3Presigner } from '#core/ingestion/presign';
import { isQuerySigned, verifyPresigned, type IssuedKey, type QuerySignedRequest } from '../../lib/twin/iam/sigv4';
import { setEnv } from '../support/config-env';

const REGION = 'us-east-1';
const BUCKET = 'ias-dev-data-files-abc123';
const KEY: IssuedKey & { accessKeyId: string } = {
  accessKeyId: 'ASIAEXAMPLEFUNCTIONKEY',
  secretAccessKey: 'c2VjcmV0IG9mIGEgZnVuY3Rpb24ncyByb2xlIHNlc3Npb24=',
  sessionToken: 'session-token-of-the-role',
};
const SIGNED_AT = new Date('2026-11-27T10:00:00Z');
const issued = (accessKeyId: string) => (accessKeyId === KEY.accessKeyId ? KEY : undefined);

/** The request a client sends for a URL: its host as signed, its raw path and query, the headers it sends. */
const requestFor = (url: string, method: string, headers: Record<string, string> = {}): QuerySignedRequest => {
  const parsed = new URL(url);
  return { method, host: parsed.host, path: `${parsed.pathname}${parsed.search}`, headers, service: 's3', region: REGION };
};
const verify = (request: QuerySignedRequest, now = new Date(SIGNED_AT.getTime() + 10_000)) => verifyPresigned(request, { issued, now });
const codeOf = (check: ReturnType<typeof verify>) => (check.ok ? 'ok' : check.code);

let client: S3Client;
beforeAll(() => {
  // the service's own client (layers/core/aws/clients.ts), as a function has it: credentials and region from its environment
  setEnv({
    AWS_REGION: REGION,
    AWS_ACCESS_KEY_ID: KEY.accessKeyId,
    AWS_SECRET_ACCESS_KEY: KEY.secretAccessKey,
    AWS_SESSION_TOKEN: KEY.sessionToken,
    AWS_ENDPOINT_URL_S3: undefined,
  });
  client = new S3Client({ region: REGION, credentials: KEY });
});
afterAll(() => client.destroy());

const upload = (key: string, sizeBytes = 11, contentType = 'application/pdf', expiresInSeconds = 900, now = SIGNED_AT) =>
  s3Presigner(BUCKET, () => now)({ key, contentType, sizeBytes, expiresInSeconds });

describe('an upload URL from presign.ts (content-length and content-type signed)', () => {
  const key = 'org/11111111-2222/inv/3333/attachments/4444/Invoice BIS-1041 (final).pdf';

  test.each([
    ['at the bucket’s AWS host', undefined],
    ['path-style at a stand-in’s own endpoint (AWS_ENDPOINT_URL_S3)', 'http://127.0.0.1:4566'],
  ])('is the URL the SDK’s getSignedUrl signs for the same PutObject, %s', async (_, endpoint) => {
    setEnv({ AWS_ENDPOINT_URL_S3: endpoint });
    const sdk = new S3Client({
      region: REGION,
      credentials: KEY,
      forcePathStyle: endpoint !== undefined,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      ...(endpoint && { endpoint }),
    });
    try {
      for (const [name, sizeBytes, contentType] of [
        [key, 11, 'application/pdf'],
        [
          "org/o/inv/i/it's *here* ~ [1] & +more!.docx",
          5_000_000,
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        ],
      ] as const) {
        const expected = await getSignedUrl(
          sdk,
          new PutObjectCommand({ Bucket: BUCKET, Key: name, ContentType: contentType, ContentLength: sizeBytes }),
          {
            expiresIn: 600,
            signableHeaders: new Set(['content-length', 'content-type']),
            signingDate: SIGNED_AT,
          },
        );
        expect((await upload(name, sizeBytes, contentType, 600)).url).toBe(expected);
      }
    } finally {
      sdk.destroy();
      setEnv({ AWS_ENDPOINT_URL_S3: undefined });
    }
  });

  test('names the bucket’s AWS host and is accepted with exactly the signed length and type', async () => {
    const { url } = await upload(key);
    expect(new URL(url).host).toBe(`${BUCKET}.s3.${REGION}.amazonaws.com`);
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(isQuerySigned(new URL(url).pathname + new URL(url).search)).toBe(true);
    expect(verify(requestFor(url, 'PUT', { 'content-type': 'application/pdf', 'content-length': '11' }))).toEqual({
      ok: true,
      accessKeyId: KEY.accessKeyId,
    });
  });

  test.each([
    ['another Content-Type', { 'content-type': 'text/html', 'content-length': '11' }],
    ['another Content-Length', { 'content-type': 'application/pdf', 'content-length': '12' }],
    ['no Content-Length (a chunked upload)', { 'content-type': 'application/pdf' }],
  ])('is refused with %s (SignatureDoesNotMatch)', async (_, headers) => {
    const { url } = await upload(key);
    const check = verify(requestFor(url, 'PUT', headers));
    expect(codeOf(check)).toBe('SignatureDoesNotMatch');
    expect(check.ok || Object.fromEntries(check.fields)).toMatchObject({
      AWSAccessKeyId: KEY.accessKeyId,
      CanonicalRequest: expect.stringContaining('\ncontent-length:'),
      StringToSign: expect.stringMatching(/^AWS4-HMAC-SHA256\n20261127T100000Z\n20261127\/us-east-1\/s3\/aws4_request\n[0-9a-f]{64}$/),
    });
  });

  test('is refused for another method, key, bucket host or query', async () => {
    const { url } = await upload(key);
    const headers = { 'content-type': 'application/pdf', 'content-length': '11' };
    expect(codeOf(verify(requestFor(url, 'GET', headers)))).toBe('SignatureDoesNotMatch');
    expect(codeOf(verify(requestFor(url.replace('/org/11111111-2222/', '/org/99999999-2222/'), 'PUT', headers)))).toBe(
      'SignatureDoesNotMatch',
    );
    expect(codeOf(verify(requestFor(url.replace(BUCKET, 'another-bucket'), 'PUT', headers)))).toBe('SignatureDoesNotMatch');
    expect(codeOf(verify(requestFor(`${url}&x-id=GetObject`, 'PUT', headers)))).toBe('SignatureDoesNotMatch');
    expect(codeOf(verify(requestFor(url.replace('X-Amz-Expires=900', 'X-Amz-Expires=901'), 'PUT', headers)))).toBe('SignatureDoesNotMatch');
  });

  test('is refused with a tampered signature', async () => {
    const { url } = await upload(key);
    const signature = new URL(url).searchParams.get('X-Amz-Signature')!;
    const tampered = url.replace(signature, `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
    expect(codeOf(verify(requestFor(tampered, 'PUT', { 'content-type': 'application/pdf', 'content-length': '11' })))).toBe(
      'SignatureDoesNotMatch',
    );
  });

  test('is refused once expired, with the times S3 names', async () => {
    const { url } = await upload(key, 11, 'application/pdf', 60);
    const headers = { 'content-type': 'application/pdf', 'content-length': '11' };
    expect(verify(requestFor(url, 'PUT', headers), new Date(SIGNED_AT.getTime() + 60_000)).ok).toBe(true);
    const check = verify(requestFor(url, 'PUT', headers), new Date(SIGNED_AT.getTime() + 61_000));
    expect(check).toEqual({
      ok: false,
      status: 403,
      code: 'AccessDenied',
      message: 'Request has expired',
      fields: [
        ['X-Amz-Expires', '60'],
        ['Expires', '2026-11-27T10:01:00Z'],
        ['ServerTime', '2026-11-27T10:01:01Z'],
      ],
    });
  });

  test('is refused when an x-amz-* header is sent unsigned', async () => {
    const { url } = await upload(key);
    const check = verify(requestFor(url, 'PUT', { 'content-type': 'application/pdf', 'content-length': '11', 'x-amz-acl': 'public-read' }));
    expect(check).toMatchObject({ status: 403, code: 'AccessDenied', fields: [['HeadersNotSigned', 'x-amz-acl']] });
  });
});

describe("the file viewer's GET URL (response-content-* overrides in the query)", () => {
  const viewUrl = (key: string, options: { expiresIn?: number; signingDate?: Date } = {}) =>
    getSignedUrl(
      client,
      new GetObjectCommand({
        Bucket: BUCKET,
        Key: key,
        ResponseContentType: 'application/pdf',
        ResponseContentDisposition: `inline; filename="Zoë's report.pdf"; filename*=UTF-8''Zo%C3%AB%27s%20report.pdf`,
      }),
      { expiresIn: options.expiresIn ?? 300, signingDate: options.signingDate ?? SIGNED_AT },
    );

  test.each(['org/a/inv/b/background/c/gift policy.txt', "org/a/Zoë+Ünïcode/[brackets] (parens) & !*~'.txt", 'org/a//double/slash'])(
    '%s: accepted as signed, whatever the headers sent',
    async (key) => {
      const url = await viewUrl(key);
      expect(verify(requestFor(url, 'GET', { 'user-agent': 'curl/8', accept: '*/*' }))).toEqual({ ok: true, accessKeyId: KEY.accessKeyId });
      expect(codeOf(verify(requestFor(url, 'HEAD')))).toBe('SignatureDoesNotMatch');
    },
  );

  test('refused when an override is changed', async () => {
    const url = await viewUrl('org/a/file.pdf');
    expect(
      codeOf(verify(requestFor(url.replace('response-content-type=application%2Fpdf', 'response-content-type=text%2Fhtml'), 'GET'))),
    ).toBe('SignatureDoesNotMatch');
  });
});

describe('the credential', () => {
  test('a key the twin did not issue: InvalidAccessKeyId; its session token must come with it: InvalidToken', async () => {
    const url = await getSignedUrl(
      new S3Client({ region: REGION, credentials: { accessKeyId: 'AKIAOPERATOR', secretAccessKey: 'operator' } }),
      new GetObjectCommand({ Bucket: BUCKET, Key: 'org/a' }),
      { signingDate: SIGNED_AT },
    );
    expect(verify(requestFor(url, 'GET'))).toMatchObject({
      status: 403,
      code: 'InvalidAccessKeyId',
      fields: [['AWSAccessKeyId', 'AKIAOPERATOR']],
    });
    const own = await getSignedUrl(client, new GetObjectCommand({ Bucket: BUCKET, Key: 'org/a' }), { signingDate: SIGNED_AT });
    const otherToken = own.replace(
      `X-Amz-Security-Token=${encodeURIComponent(KEY.sessionToken!)}`,
      `X-Amz-Security-Token=${encodeURIComponent('a-token-of-another-session')}`,
    );
    expect(otherToken).not.toBe(own);
    expect(verify(requestFor(otherToken, 'GET'))).toMatchObject({ status: 400, code: 'InvalidToken' });
  });

  test('signed for another region or service, or not with SigV4: AuthorizationQueryParametersError', async () => {
    const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: BUCKET, Key: 'org/a' }), { signingDate: SIGNED_AT });
    expect(verify({ ...requestFor(url, 'GET'), region: 'eu-west-1' })).toMatchObject({
      status: 400,
      code: 'AuthorizationQueryParametersError',
      message: "Error parsing the X-Amz-Credential parameter; the region 'us-east-1' is wrong; expecting 'eu-west-1'",
    });
    expect(verify({ ...requestFor(url, 'GET'), service: 'sqs' })).toMatchObject({ code: 'AuthorizationQueryParametersError' });
    expect(verify(requestFor(url.replace('AWS4-HMAC-SHA256', 'AWS4-HMAC-SHA1'), 'GET'))).toMatchObject({
      message: 'X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"',
    });
    expect(verify(requestFor(url.replace(/&X-Amz-Date=[^&]+/, ''), 'GET'))).toMatchObject({ code: 'AuthorizationQueryParametersError' });
    expect(verify(requestFor(url.replace('X-Amz-Expires=900', 'X-Amz-Expires=604801'), 'GET'))).toMatchObject({
      message: 'X-Amz-Expires must be less than a week (in seconds) that is 604800',
    });
  });

  test('a presigned request that also carries an Authorization header: InvalidArgument (one auth mechanism only)', async () => {
    const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: BUCKET, Key: 'org/a' }), { signingDate: SIGNED_AT });
    expect(verify(requestFor(url, 'GET', { authorization: 'Bearer eyJ…' }))).toMatchObject({
      status: 400,
      code: 'InvalidArgument',
      fields: [
        ['ArgumentName', 'Authorization'],
        ['ArgumentValue', 'Bearer eyJ…'],
      ],
    });
  });

  test('a URL without query authentication is not query-signed', () => {
    expect(isQuerySigned('/org/a?response-content-type=text%2Fplain')).toBe(false);
    expect(isQuerySigned('/org/a')).toBe(false);
  });
});
