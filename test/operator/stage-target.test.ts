/**
 * The deployed-stage path of the operator commands, without AWS: `--stage prod` invokes
 * `ias-prod-<function>` with the SDK's usual configuration (credentials and region from the environment),
 * here pointed at a local HTTP server by AWS_ENDPOINT_URL_LAMBDA; a function error becomes the command's
 * error, with the function's message.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OperatorCallError, operatorTarget } from '../../lib/operator/invoke';

const requests: { path: string; body: string; authorization: string }[] = [];
let answer: { status: number; headers: Record<string, string>; body: string } = {
  status: 200,
  headers: {},
  body: '{"ok":true,"result":{"organizations":[]}}',
};
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    requests.push({
      path: req.url ?? '',
      body: Buffer.concat(chunks).toString('utf8'),
      authorization: String(req.headers.authorization ?? ''),
    });
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body);
  });
});
const saved = { ...process.env };

beforeAll(async () => {
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_LAMBDA: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    AWS_ACCESS_KEY_ID: 'AKIAOPERATOR',
    AWS_SECRET_ACCESS_KEY: 'operator-secret',
    AWS_REGION: 'eu-west-1',
  });
});
afterAll(async () => {
  process.env = saved;
  await new Promise<void>((ok) => server.close(() => ok()));
});

test("--stage prod invokes ias-prod-users, signed with the operator's credentials, in their region", async () => {
  const target = operatorTarget({ stage: 'prod' });
  expect(target.describe).toBe('stage prod');
  await expect(target.invoke('users', { command: 'list' })).resolves.toEqual({ ok: true, result: { organizations: [] } });
  const [request] = requests;
  expect(request!.path).toBe('/2015-03-31/functions/ias-prod-users/invocations');
  expect(JSON.parse(request!.body)).toEqual({ command: 'list' });
  expect(request!.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAOPERATOR\/\d{8}\/eu-west-1\/lambda\/aws4_request/);
});

test("a function error is the command's error, naming the function and its message", async () => {
  answer = {
    status: 200,
    headers: { 'x-amz-function-error': 'Unhandled' },
    body: '{"errorType":"Error","errorMessage":"connect ETIMEDOUT"}',
  };
  const failure = operatorTarget({ stage: 'dev', region: 'us-east-1' }).invoke('import-investigations', { command: 'upload-url' });
  await expect(failure).rejects.toThrow(OperatorCallError);
  await expect(failure).rejects.toThrow('ias-dev-import-investigations failed: Error: connect ETIMEDOUT');
});
