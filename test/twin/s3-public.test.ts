/**
 * The twin's "DNS" for users (lib/twin/aws/s3-public.ts): a presigned URL of one of its buckets, named by the bucket's
 * AWS host, becomes the public endpoint's path-style URL with the same path and query; the gateway applies that
 * to the Location header and to every string of a JSON body, and leaves everything else as the function wrote it.
 */
import { publicUrls, withPublicUrls } from '../../lib/twin/aws/s3-public';

const ENDPOINT = 'http://127.0.0.1:41234';
const BUCKET = 'ias-dev-data-files8e6940b8-abc';
const QUERY = '?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIA%2F20261127%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature=ab12';
const AWS_URL = `https://${BUCKET}.s3.us-east-1.amazonaws.com/org/a/Invoice%20BIS-1041.pdf${QUERY}`;
const PUBLIC_URL = `${ENDPOINT}/${BUCKET}/org/a/Invoice%20BIS-1041.pdf${QUERY}`;
const map = publicUrls(ENDPOINT, [BUCKET, 'ias-dev-data-accesslogs-x'], 'us-east-1');

describe('publicUrls', () => {
  test("a presigned URL of the twin's bucket: the same path and query, path-style at the endpoint", () => {
    expect(map(AWS_URL)).toBe(PUBLIC_URL);
  });

  test.each([
    ['an unsigned URL of the bucket', `https://${BUCKET}.s3.us-east-1.amazonaws.com/org/a`],
    ['another bucket', AWS_URL.replace(BUCKET, 'someone-elses-bucket')],
    ['another region', AWS_URL.replace('.us-east-1.', '.eu-west-1.')],
    ['the path-style AWS endpoint', `https://s3.us-east-1.amazonaws.com/${BUCKET}/org/a${QUERY}`],
    ['plain http', AWS_URL.replace('https:', 'http:')],
    ['text that is no URL', 'the bucket is at https://'],
    ['the bucket name as text', BUCKET],
  ])('leaves %s alone', (_, text) => {
    expect(map(text)).toBeUndefined();
  });
});

describe('withPublicUrls', () => {
  test('the Location of a redirect and the link in its JSON body; the rest of the body as written', () => {
    const redirectTo = (url: string) => ({
      statusCode: 302,
      headers: { 'content-type': 'application/json', Location: url, 'cache-control': 'no-store' },
      body: JSON.stringify({ kind: 'attachment', url, nested: [{ upload: { url, method: 'PUT' } }], count: 2, note: null }),
    });
    expect(withPublicUrls(redirectTo(AWS_URL), map)).toEqual(redirectTo(PUBLIC_URL));
  });

  test('an answer without such a URL is returned as it is, byte for byte', () => {
    const answer = { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{ "a" : 1 }' };
    expect(withPublicUrls(answer, map)).toBe(answer);
  });

  test('a body that is not JSON, or base64, is not read', () => {
    const text = { statusCode: 200, headers: { 'content-type': 'text/plain' }, body: AWS_URL };
    expect(withPublicUrls(text, map)).toBe(text);
    const binary = {
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify(AWS_URL)).toString('base64'),
      isBase64Encoded: true,
    };
    expect(withPublicUrls(binary, map)).toBe(binary);
    const broken = { statusCode: 200, headers: { 'Content-Type': 'application/problem+json', location: AWS_URL }, body: '{' };
    expect(withPublicUrls(broken, map)).toEqual({
      ...broken,
      headers: { 'Content-Type': 'application/problem+json', location: PUBLIC_URL },
    });
  });
});
