/**
 * The twin's CA and server certificate: a client that trusts the CA verifies the server for every name in
 * the certificate (wildcards included) and for no other; the CA is kept, the server certificate follows the names.
 */
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer, type Server } from 'node:tls';
import { loadOrCreateTls, type TwinTls } from '../../lib/twin/aws/tls';

const NAMES = ['*.us-east-1.amazonaws.com', 'localhost'];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'twin-tls-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Serve `tls` on a local port and report whether a client trusting `ca` accepts it for `servername`. */
const handshake = async (tls: TwinTls, servername: string, ca: string | null = tls.caPem): Promise<string> => {
  const server: Server = createServer({ key: tls.keyPem, cert: tls.certPem }, (socket) => socket.end());
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  try {
    return await new Promise<string>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port, servername, ...(ca && { ca }) }, () => {
        resolve('verified');
        socket.end();
      });
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
};

test('the server certificate verifies against the CA for its names, wildcards included, and for no other', async () => {
  const tls = await loadOrCreateTls(dir, NAMES);
  expect(await handshake(tls, 'sqs.us-east-1.amazonaws.com')).toBe('verified');
  expect(await handshake(tls, 'localhost')).toBe('verified');
  expect(await handshake(tls, 'sqs.eu-west-1.amazonaws.com')).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
  // a wildcard covers one label only
  expect(await handshake(tls, 'a.proxy.us-east-1.amazonaws.com')).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
  // nothing but the twin's CA vouches for it
  expect(await handshake(tls, 'sqs.us-east-1.amazonaws.com', null)).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
});

test('the certificates carry CA and server extensions, backdated for clock skew', async () => {
  const tls = await loadOrCreateTls(dir, NAMES);
  const ca = new X509Certificate(tls.caPem);
  const server = new X509Certificate(tls.certPem);
  expect(ca.ca).toBe(true);
  expect(ca.subject).toBe('CN=Investigation Analysis local twin CA');
  expect(ca.validToDate.getTime() - Date.now()).toBeGreaterThan(9 * 365 * 24 * 3600 * 1000);
  expect(server.ca).toBe(false);
  expect(server.checkIssued(ca)).toBe(true);
  expect(server.verify(ca.publicKey)).toBe(true);
  expect(server.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']); // extendedKeyUsage serverAuth
  expect(server.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
  expect(server.validFromDate.getTime()).toBeLessThan(Date.now() - 5 * 60 * 1000);
});

test('keys are readable by the owner only', async () => {
  await loadOrCreateTls(dir, NAMES);
  for (const file of ['ca-key.pem', 'server-key.pem']) expect((await stat(join(dir, file))).mode & 0o777).toBe(0o600);
});

test('a second call reads the same CA and certificate; new names re-issue the certificate under the same CA', async () => {
  const first = await loadOrCreateTls(dir, NAMES);
  const again = await loadOrCreateTls(dir, [...NAMES].reverse());
  expect(again).toEqual(first);

  const renamed = await loadOrCreateTls(dir, [...NAMES, '*.proxy-abc.us-east-1.rds.amazonaws.com']);
  expect(renamed.caPem).toBe(first.caPem);
  expect(renamed.certPem).not.toBe(first.certPem);
  expect(renamed.keyPem).not.toBe(first.keyPem);
  expect(await handshake(renamed, 'db.proxy-abc.us-east-1.rds.amazonaws.com')).toBe('verified');
  expect(await handshake(renamed, 'sqs.us-east-1.amazonaws.com')).toBe('verified');
});

test('a damaged CA is replaced, and the server certificate with it', async () => {
  const other = await mkdtemp(join(tmpdir(), 'twin-tls-'));
  try {
    const first = await loadOrCreateTls(other, NAMES);
    await writeFile(join(other, 'ca-key.pem'), 'not a key');
    const next = await loadOrCreateTls(other, NAMES);
    expect(next.caPem).not.toBe(first.caPem);
    expect(new X509Certificate(next.certPem).checkIssued(new X509Certificate(next.caPem))).toBe(true);
    expect(await handshake(next, 'sqs.us-east-1.amazonaws.com')).toBe('verified');
  } finally {
    await rm(other, { recursive: true, force: true });
  }
});
