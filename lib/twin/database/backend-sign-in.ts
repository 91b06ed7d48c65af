/**
 * How the proxy signs in to the database behind it: a startup message as the backend's user, then whichever
 * authentication the database asks for (cleartext, MD5 or SCRAM-SHA-256), as libpq answers it.
 */
import { createHash, createHmac, pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { promisify } from 'node:util';
import {
  AUTH_CLEARTEXT,
  AUTH_MD5,
  AUTH_OK,
  AUTH_SASL,
  AUTH_SASL_CONTINUE,
  AUTH_SASL_FINAL,
  cstring,
  errorMessage,
  type MessageReader,
  startupMessage,
  typed,
} from './wire';

/** Where the proxy signs in: the database's address, and the user (and password) it signs in as. */
export interface BackendTarget {
  host: string;
  port: number;
  database: string;
  user: string;
  password?: string;
}

const pbkdf2Async = promisify(pbkdf2);

/**
 * Open the backend session as the backend's user on its database, with the client's other parameters, and
 * answer its authentication. Returns the AuthenticationOk message, or undefined when the backend refused
 * (its error went to the client). Notices and protocol negotiation before that are passed on.
 */
export const startBackend = async (
  backend: Socket,
  reader: MessageReader,
  clientParams: Map<string, string>,
  target: BackendTarget,
  client: Duplex,
  log: (line: string) => void,
): Promise<Buffer | undefined> => {
  const params = new Map(clientParams);
  params.set('user', target.user);
  params.set('database', target.database);
  backend.write(startupMessage(params));
  const password = () => {
    if (target.password === undefined) throw new Error('the database asks for a password and the proxy has none');
    return target.password;
  };
  let scram: { clientFirstBare: string; serverSignature?: string } | undefined;
  for (;;) {
    const message = await reader.message();
    if (message.type === 'E') {
      log(`the database refused the connection: ${errorMessage(message.body)}`);
      if (client.writable) client.end(message.raw);
      return undefined;
    }
    if (message.type === 'N' || message.type === 'v') {
      client.write(message.raw);
      continue;
    }
    if (message.type !== 'R') throw new Error(`unexpected message '${message.type}' during authentication`);
    const kind = message.body.readInt32BE(0);
    const data = message.body.subarray(4);
    switch (kind) {
      case AUTH_OK:
        if (scram && !scram.serverSignature) throw new Error('the database skipped the SCRAM server signature');
        return message.raw;
      case AUTH_CLEARTEXT:
        backend.write(typed('p', cstring(password())));
        break;
      case AUTH_MD5:
        backend.write(typed('p', cstring(md5Password(target.user, password(), data))));
        break;
      case AUTH_SASL: {
        const mechanisms = data.toString('utf8').split('\0');
        if (!mechanisms.includes('SCRAM-SHA-256')) throw new Error(`no supported SASL mechanism in ${mechanisms.join(' ')}`);
        // PostgreSQL takes the user from the startup message, so SCRAM's user name stays empty, as libpq sends it
        scram = { clientFirstBare: `n=,r=${randomBytes(18).toString('base64')}` };
        const clientFirst = Buffer.from(`n,,${scram.clientFirstBare}`);
        const length = Buffer.alloc(4);
        length.writeInt32BE(clientFirst.length);
        backend.write(typed('p', Buffer.concat([cstring('SCRAM-SHA-256'), length, clientFirst])));
        break;
      }
      case AUTH_SASL_CONTINUE: {
        if (!scram) throw new Error('SASLContinue before SASL');
        const step = await scramClientFinal(password(), scram.clientFirstBare, data.toString('utf8'));
        scram.serverSignature = step.serverSignature;
        backend.write(typed('p', Buffer.from(step.clientFinal)));
        break;
      }
      case AUTH_SASL_FINAL: {
        const expected = Buffer.from(`v=${scram?.serverSignature ?? ''}`);
        if (!scram?.serverSignature || data.length !== expected.length || !timingSafeEqual(data, expected)) {
          throw new Error('the database sent a wrong SCRAM server signature');
        }
        break;
      }
      default:
        throw new Error(`the database asks for an authentication method the proxy does not support (${kind})`);
    }
  }
};

/** PostgreSQL's MD5 password response: "md5" + md5(md5(password + user) + salt), in hex. */
export const md5Password = (user: string, password: string, salt: Buffer): string => {
  const inner = createHash('md5')
    .update(password + user)
    .digest('hex');
  return `md5${createHash('md5').update(inner).update(salt).digest('hex')}`;
};

const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();

/**
 * The SCRAM-SHA-256 client-final-message for a server-first-message (RFC 5802, RFC 7677), and the server
 * signature that proves the server knew the password. No channel binding: the backend link is plain TCP.
 */
export const scramClientFinal = async (
  password: string,
  clientFirstBare: string,
  serverFirst: string,
): Promise<{ clientFinal: string; serverSignature: string }> => {
  const attribute = (message: string, name: string) =>
    message
      .split(',')
      .find((part) => part.startsWith(`${name}=`))
      ?.slice(2);
  const clientNonce = attribute(clientFirstBare, 'r') ?? '';
  const nonce = attribute(serverFirst, 'r');
  const salt = attribute(serverFirst, 's');
  const iterations = Number(attribute(serverFirst, 'i'));
  if (!nonce?.startsWith(clientNonce) || nonce.length <= clientNonce.length || !salt || !(iterations > 0)) {
    throw new Error('invalid SCRAM server-first-message');
  }
  const salted = await pbkdf2Async(password, Buffer.from(salt, 'base64'), iterations, 32, 'sha256');
  const clientKey = hmac(salted, 'Client Key');
  const storedKey = createHash('sha256').update(clientKey).digest();
  const withoutProof = `c=biws,r=${nonce}`; // biws = base64("n,,"): no channel binding, no authzid
  const authMessage = `${clientFirstBare},${serverFirst},${withoutProof}`;
  const clientSignature = hmac(storedKey, authMessage);
  const proof = Buffer.from(clientKey.map((byte, i) => byte ^ clientSignature[i]!));
  return {
    clientFinal: `${withoutProof},p=${proof.toString('base64')}`,
    serverSignature: hmac(hmac(salted, 'Server Key'), authMessage).toString('base64'),
  };
};
