/**
 * The twin's own certificate authority, so local stand-ins (RDS Proxy, AWS endpoints) can speak TLS to
 * code that verifies certificates exactly as it does in AWS: the CA is created once and kept in a folder,
 * and the server certificate it signs covers the AWS hostnames the twin answers for.
 */
import { createPrivateKey, randomBytes, webcrypto, X509Certificate, type KeyObject } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface TwinTls {
  caPem: string;
  certPem: string;
  keyPem: string;
}

const CA_SUBJECT = 'CN=Investigation Analysis local twin CA';
const SERVER_SUBJECT = 'CN=Investigation Analysis local twin';
const DAY_MS = 24 * 60 * 60 * 1000;
const CA_DAYS = 3650;
const SERVER_DAYS = 365;
/** Backdating covers clocks that disagree a little (a suspended laptop, a container). */
const BACKDATE_MS = 60 * 60 * 1000;
/** A server certificate this close to expiry is re-issued rather than served. */
const RENEW_BEFORE_MS = 30 * DAY_MS;

const FILES = { caKey: 'ca-key.pem', caCert: 'ca.pem', serverKey: 'server-key.pem', serverCert: 'server.pem' };
const EC_KEY = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;

interface Pair {
  keyPem: string;
  certPem: string;
  cert: X509Certificate;
  key: KeyObject;
}

/** The twin's CA (created once, kept in `dir`) and a server certificate for `dnsNames` signed by it (re-issued when the names change). */
export const loadOrCreateTls = async (dir: string, dnsNames: string[]): Promise<TwinTls> => {
  const names = [...new Set(dnsNames)].sort();
  if (names.length === 0) throw new Error('a server certificate needs at least one DNS name');
  await mkdir(dir, { recursive: true, mode: 0o700 });

  let ca = await readPair(dir, FILES.caKey, FILES.caCert);
  // the CA must outlive any server certificate it signs from now on
  if (!ca || ca.cert.validToDate.getTime() < Date.now() + SERVER_DAYS * DAY_MS) {
    ca = await issue(dir, FILES.caKey, FILES.caCert, caCertificate);
  }

  let server = await readPair(dir, FILES.serverKey, FILES.serverCert);
  if (!server || !serves(server.cert, ca, names)) {
    const signer = ca;
    server = await issue(dir, FILES.serverKey, FILES.serverCert, (keys, x509) => serverCertificate(keys, x509, signer, names));
  }
  return { caPem: ca.certPem, certPem: server.certPem, keyPem: server.keyPem };
};

/** A key and certificate from `dir`, or undefined when either is missing, unreadable or they do not belong together. */
const readPair = async (dir: string, keyFile: string, certFile: string): Promise<Pair | undefined> => {
  try {
    const [keyPem, certPem] = await Promise.all([readFile(join(dir, keyFile), 'utf8'), readFile(join(dir, certFile), 'utf8')]);
    const key = createPrivateKey(keyPem);
    const cert = new X509Certificate(certPem);
    return cert.checkPrivateKey(key) ? { keyPem, certPem, cert, key } : undefined;
  } catch {
    return undefined;
  }
};

/** Whether a stored server certificate still fits: signed by this CA, exactly these names, not about to expire. */
const serves = (cert: X509Certificate, ca: Pair, names: string[]): boolean =>
  cert.verify(ca.cert.publicKey) &&
  cert.validToDate.getTime() > Date.now() + RENEW_BEFORE_MS &&
  sanNames(cert).join('\n') === names.join('\n');

/** DNS names from node's rendering of subjectAltName ("DNS:a, DNS:b"); DNS names hold no comma. */
const sanNames = (cert: X509Certificate): string[] =>
  (cert.subjectAltName ?? '')
    .split(', ')
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice('DNS:'.length))
    .sort();

type X509 = typeof import('@peculiar/x509');
type Build = (keys: webcrypto.CryptoKeyPair, x509: X509) => Promise<import('@peculiar/x509').X509Certificate>;

/** A new key pair and the certificate `build` makes for it, written to `dir` (the key readable by the owner only). */
const issue = async (dir: string, keyFile: string, certFile: string, build: Build): Promise<Pair> => {
  // loaded only when issuing: a started twin reads its files and never pays for the library
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  const keys = await webcrypto.subtle.generateKey(EC_KEY, true, ['sign', 'verify']);
  const certPem = (await build(keys, x509)).toString('pem');
  const keyPem = toPem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  // key first: a reader between the two writes finds a key and certificate that do not match, and issues anew
  await writeAtomically(join(dir, keyFile), keyPem, 0o600);
  await writeAtomically(join(dir, certFile), certPem, 0o644);
  return { keyPem, certPem, cert: new X509Certificate(certPem), key: createPrivateKey(keyPem) };
};

const caCertificate = async (keys: webcrypto.CryptoKeyPair, x509: X509) => {
  const { notBefore, notAfter } = validity(CA_DAYS);
  return x509.X509CertificateGenerator.createSelfSigned(
    {
      name: CA_SUBJECT,
      keys,
      notBefore,
      notAfter,
      signingAlgorithm: SIGNING,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, webcrypto),
      ],
    },
    webcrypto,
  );
};

const serverCertificate = async (keys: webcrypto.CryptoKeyPair, x509: X509, ca: Pair, names: string[]) => {
  const { notBefore, notAfter } = validity(SERVER_DAYS);
  const caCert = new x509.X509Certificate(ca.certPem);
  const caSigningKey = await webcrypto.subtle.importKey('pkcs8', ca.key.export({ type: 'pkcs8', format: 'der' }), EC_KEY, false, ['sign']);
  return x509.X509CertificateGenerator.create(
    {
      subject: SERVER_SUBJECT,
      // the CA's own encoded name, so chain building matches issuer to subject byte for byte
      issuer: caCert.subjectName,
      publicKey: keys.publicKey,
      signingKey: caSigningKey,
      notBefore,
      notAfter,
      signingAlgorithm: SIGNING,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension(names.map((value) => ({ type: 'dns' as const, value }))),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, webcrypto),
        await x509.AuthorityKeyIdentifierExtension.create(caCert.publicKey, false, webcrypto),
      ],
    },
    webcrypto,
  );
};

const validity = (days: number) => {
  const now = Date.now();
  return { notBefore: new Date(now - BACKDATE_MS), notAfter: new Date(now + days * DAY_MS) };
};

const toPem = (label: string, der: ArrayBuffer): string =>
  `-----BEGIN ${label}-----\n${Buffer.from(der)
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END ${label}-----\n`;

/** Write through a temporary file and rename, so a concurrent reader never sees half a file. */
const writeAtomically = async (path: string, content: string, mode: number): Promise<void> => {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, content, { mode });
  await rename(temporary, path);
};
