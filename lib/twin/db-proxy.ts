/**
 * A local stand-in for RDS Proxy, so functions reach the database exactly as deployed: TLS required; the
 * client authenticated as the proxy authenticates it — with an RDS IAM auth token whose signer's policy
 * allows `rds-db:connect` on the proxy user (IAMAuth REQUIRED), else with the secret's username and
 * password —; then one backend connection per client to real PostgreSQL or the twin's PGlite server
 * (./pglite-server.ts), signed in with the secret's current value, with the bytes piped both ways
 * (PostgreSQL protocol 3.0). The secret is read for each connection, so a rotation is picked up.
 */
import { createHash, createHmac, pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';
import { connect, createServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { TLSSocket } from 'node:tls';
import { promisify } from 'node:util';
import { decideForIdentity, type EdgeIdentity } from './aws-edge';
import { checkRdsAuthToken } from './iam/rds-auth-token';

export interface DatabaseProxyOptions {
  tls: { keyPem: string; certPem: string };
  /**
   * The proxy's secret, read anew for each connection: the user clients sign in as, the password the proxy
   * signs in to the database with, and (without IAM authentication) the password clients must present.
   */
  credentials: () => Promise<{ username: string; password: string }>;
  /** IAM authentication required (the proxy's `IAMAuth: REQUIRED`): clients present an RDS IAM auth token instead of a password */
  iamAuth?: IamAuthOptions;
  /**
   * Where the proxy forwards: the twin's PGlite server or real PostgreSQL. Without user and password the proxy
   * signs in with the secret's (as RDS Proxy does); with them, as that server's own user (a PostgreSQL the twin
   * does not own the roles of, DATABASE_URL's).
   */
  backend: { host: string; port: number; user?: string; password?: string; database: string };
  log?: (line: string) => void;
}

export interface IamAuthOptions {
  /** the endpoint clients connect to, which their tokens must be signed for (the proxy's host name and port) */
  host: string;
  port: number;
  region: string;
  /** the IAM resource a client must be allowed to connect to as `user`: arn:aws:rds-db:<region>:<account>:dbuser:<proxy resource id>/<user> */
  resource: (user: string) => string;
  /** the IAM decision on `rds-db:connect` for the identity an access key belongs to; undefined when it belongs to none */
  authorize: (accessKeyId: string, permission: { action: string; resource: string }) => { allowed: boolean } | undefined;
  now?: () => Date;
}

/**
 * rds-db:connect decided as the AWS edge decides a function's calls: the identity the access key belongs to,
 * its role's synthesized statements and the request context of a role session over TLS, by the twin's policy
 * evaluator. Each decision is recorded with the function's AWS calls (`npm run iam-report`).
 */
export const policyAuthorizer =
  (
    identities: ReadonlyMap<string, EdgeIdentity>,
    account: string,
    record: (call: { functionId: string; service: 'rds-db'; action: string; resource: string; allowed: boolean; at: Date }) => void,
    log: (line: string) => void = () => undefined,
  ): IamAuthOptions['authorize'] =>
  (accessKeyId, { action, resource }) => {
    const caller = identities.get(accessKeyId);
    if (!caller) return undefined;
    const { allowed } = decideForIdentity(caller, account, { action, resource });
    record({ functionId: caller.functionId, service: 'rds-db', action, resource, allowed, at: new Date() });
    if (!allowed) log(`[iam] ${caller.functionId}: ${action} on ${resource} denied`);
    return { allowed };
  };

export interface DatabaseProxy {
  port: number;
  /** end every open client connection as PostgreSQL does when a server ends sessions (57P01); new ones are served */
  dropConnections(): Promise<void>;
  /**
   * Faults, for resilience tests: 'down' stops listening (new connections are refused: ECONNREFUSED) and ends
   * open ones (57P01); 'hung' accepts connections and never answers, and open ones stop answering mid-query —
   * a database that hangs. fault(undefined) restores the proxy on the same port, ending what hung.
   */
  fault(kind: 'down' | 'hung' | undefined): Promise<void>;
  stop(): Promise<void>;
}

const PROTOCOL_3_0 = 196608;
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** PostgreSQL's own bounds: a startup packet of at most 10,000 bytes; setup messages are small. */
const MAX_STARTUP_LENGTH = 10_000;
const MAX_SETUP_MESSAGE_LENGTH = 1 << 20;

const AUTH_OK = 0;
const AUTH_CLEARTEXT = 3;
const AUTH_MD5 = 5;
const AUTH_SASL = 10;
const AUTH_SASL_CONTINUE = 11;
const AUTH_SASL_FINAL = 12;

const pbkdf2Async = promisify(pbkdf2);

/** The peer went away (the message says how); nothing to tell that peer. */
class Closed extends Error {}

export const startDatabaseProxy = async (options: DatabaseProxyOptions): Promise<DatabaseProxy> => {
  const connections = new Map<() => void, Connection>();
  const server = createServer((socket) => {
    if (current !== 'hung') return void serve(socket, options, connections);
    held.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => held.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => options.log?.(`[twin db proxy] ${error.message}`));
  const port = (server.address() as { port: number }).port;
  let current: 'down' | 'hung' | undefined;
  /** connections accepted while hung, never answered */
  const held = new Set<Socket>();
  const dropConnections = async () => {
    await Promise.all([...connections.values()].map((connection) => connection.terminate()));
  };
  return {
    port,
    dropConnections,
    fault: async (kind) => {
      if (kind === current) return;
      if (current === 'down') {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, '127.0.0.1', () => {
            server.off('error', reject);
            resolve();
          });
        });
      }
      if (current === 'hung') {
        for (const socket of held) socket.destroy();
        held.clear();
        for (const close of [...connections.keys()]) close();
      }
      current = kind;
      if (kind === 'down') {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        await dropConnections();
        await closed;
      }
      if (kind === 'hung') for (const connection of connections.values()) connection.stall();
    },
    stop: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const close of [...connections.keys()]) close();
      await closed;
    },
  };
};

/** One client connection as the proxy's registry knows it: ended with an error once it is past the handshake. */
interface Connection {
  terminate: () => Promise<void>;
  stall: () => void;
}

/** One client connection, from its first byte to either side closing. */
const serve = async (raw: Socket, options: DatabaseProxyOptions, connections: Map<() => void, Connection>): Promise<void> => {
  const log = (line: string) => options.log?.(`[twin db proxy] ${line}`);
  const sockets: Duplex[] = [];
  let secured: Duplex | undefined;
  const close = () => {
    connections.delete(close);
    for (const socket of sockets) socket.destroy();
  };
  connections.set(close, {
    // a hung database: nothing more is forwarded either way, the connection stays open
    stall: () => {
      for (const socket of sockets) {
        socket.unpipe();
        socket.pause();
      }
    },
    // as PostgreSQL ends a session (pg_terminate_backend, a restart): FATAL 57P01, then the connection closes
    terminate: async () => {
      const client = secured;
      if (client?.writable) {
        const ended = new Promise<void>((resolve) => {
          client.once('close', () => resolve());
          setTimeout(resolve, 1_000).unref();
        });
        for (const socket of sockets) if (socket !== client) socket.unpipe(client);
        refuse(client, '57P01', 'terminating connection due to administrator command');
        await ended;
      }
      close();
    },
  });
  /** Every socket is heard from its creation: an error is logged unless it is a peer leaving, never thrown. */
  const own = <T extends Duplex>(socket: T, closesConnection: boolean): T => {
    sockets.push(socket);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!['ECONNRESET', 'EPIPE', 'ECONNREFUSED'].includes(error.code ?? '')) log(error.message);
    });
    if (closesConnection) socket.on('close', close);
    return socket;
  };

  own(raw, true);
  raw.setNoDelay(true);
  try {
    const client = await negotiate(raw, options, own);
    if (!client) return;
    const { socket, reader, params } = client;
    secured = socket;
    const user = params.get('user') ?? '';
    const secret = await options.credentials();
    if (options.iamAuth) {
      const refusal = await authenticateIam(socket, reader, user, secret.username, options.iamAuth);
      if (refusal) {
        log(`IAM authentication failed for user "${user}": ${refusal}`);
        return refuse(
          socket,
          '28P01',
          `The IAM authentication failed for the role ${user}. Check the IAM token for this role and try again.`,
        );
      }
    } else if (!(await authenticate(socket, reader, user, secret))) {
      log(`password authentication failed for user "${user}"`);
      return refuse(socket, '28P01', `password authentication failed for user "${user}"`);
    }
    // the proxy's own sign-in: the secret's current value (read above, for this connection), unless the backend has its own
    const { user: ownUser, password: ownPassword, ...backendAddress } = options.backend;
    const target =
      ownUser !== undefined
        ? { ...backendAddress, user: ownUser, ...(ownPassword !== undefined && { password: ownPassword }) }
        : { ...backendAddress, user: secret.username, password: secret.password };

    // the backend's own close only ends the client once piping starts, so a startup failure can still be told
    const backend = own(connect({ host: options.backend.host, port: options.backend.port }), false);
    backend.setNoDelay(true);
    const backendReader = new MessageReader(backend);
    let ready: Buffer | undefined;
    try {
      ready = await startBackend(backend, backendReader, params, target, socket, log);
    } catch (error) {
      if (socket.destroyed) throw new Closed('the client left');
      log(`could not open a database connection: ${(error as Error).message}`);
      return refuse(socket, '08006', `the proxy could not open a database connection: ${(error as Error).message}`);
    } finally {
      if (!ready) backend.destroy();
    }
    if (!ready) return;

    backend.on('close', close);
    socket.write(Buffer.concat([ready, backendReader.release()]));
    const early = reader.release();
    if (early.length > 0) backend.write(early);
    socket.pipe(backend);
    backend.pipe(socket);
  } catch (error) {
    if (error instanceof Closed) return close();
    log((error as Error).message);
    // a client past the handshake hears why, as from PostgreSQL; before it, there is no one to tell
    if (secured) refuse(secured, 'XX000', `the proxy failed: ${(error as Error).message}`);
    else close();
  }
};

type Own = <T extends Duplex>(socket: T, closesConnection: boolean) => T;

/**
 * Read the client's opening packets up to its StartupMessage: SSLRequest upgrades to TLS, GSSENCRequest is
 * declined, CancelRequest ends the connection. Undefined when the client was refused or only cancelling.
 */
const negotiate = async (
  raw: Socket,
  options: DatabaseProxyOptions,
  own: Own,
): Promise<{ socket: Duplex; reader: MessageReader; params: Map<string, string> } | undefined> => {
  let socket: Duplex = raw;
  let reader = new MessageReader(raw);
  for (;;) {
    const packet = await reader.packet();
    const code = packet.readInt32BE(0);
    if (code === SSL_REQUEST && socket === raw) {
      // bytes sent before the handshake would bypass TLS (CVE-2021-23214): PostgreSQL drops such clients too
      if (reader.release().length > 0) throw new Error('unencrypted data after SSLRequest');
      raw.write('S');
      socket = own(new TLSSocket(raw, { isServer: true, key: options.tls.keyPem, cert: options.tls.certPem }), true);
      reader = new MessageReader(socket);
    } else if (code === GSSENC_REQUEST && socket === raw) {
      raw.write('N');
    } else if (code === CANCEL_REQUEST) {
      raw.destroy();
      return undefined;
    } else if (code === PROTOCOL_3_0) {
      if (socket === raw) {
        refuse(raw, '28000', 'This RDS Proxy requires TLS connections');
        return undefined;
      }
      return { socket, reader, params: startupParameters(packet) };
    } else {
      refuse(socket, '0A000', `unsupported frontend protocol ${code >>> 16}.${code & 0xffff}: server supports 3.0 to 3.0`);
      return undefined;
    }
  }
};

/** The password the client sends after AuthenticationCleartextPassword (the channel is TLS). */
const cleartextPassword = async (socket: Duplex, reader: MessageReader): Promise<string> => {
  socket.write(authentication(AUTH_CLEARTEXT));
  const reply = await reader.message();
  if (reply.type !== 'p') throw new Error(`expected a password message, got '${reply.type}'`);
  return reply.body.subarray(0, Math.max(0, reply.body.indexOf(0))).toString('utf8');
};

/** Ask for the password and compare both user and password with the secret's, in constant time. */
const authenticate = async (
  socket: Duplex,
  reader: MessageReader,
  user: string,
  expected: { username: string; password: string },
): Promise<boolean> => {
  const password = await cleartextPassword(socket, reader);
  const userMatches = sameSecret(user, expected.username);
  const passwordMatches = sameSecret(password, expected.password);
  return userMatches && passwordMatches;
};

/**
 * IAM authentication as RDS Proxy does it: the password is an RDS IAM auth token for this endpoint and the
 * client's user, unexpired, signed by a known identity whose policy allows rds-db:connect on the proxy user;
 * and the proxy holds a secret for that user. Returns why the client is refused, or undefined.
 */
const authenticateIam = async (
  socket: Duplex,
  reader: MessageReader,
  user: string,
  secretUser: string,
  iam: IamAuthOptions,
): Promise<string | undefined> => {
  const token = await cleartextPassword(socket, reader);
  const check = checkRdsAuthToken(token, { host: iam.host, port: iam.port, user, region: iam.region, now: iam.now?.() ?? new Date() });
  if (!check.ok) return check.reason;
  const resource = iam.resource(user);
  const decision = iam.authorize(check.accessKeyId, { action: 'rds-db:connect', resource });
  if (!decision) return `the access key ${check.accessKeyId} belongs to no identity`;
  if (!decision.allowed) return `the signer may not rds-db:connect to ${resource}`;
  if (user !== secretUser) return `the proxy has no secret for user "${user}"`;
  return undefined;
};

/** Equal-length digests make timingSafeEqual applicable to strings of any length. */
const sameSecret = (a: string, b: string): boolean =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/**
 * Open the backend session as the backend's user on its database, with the client's other parameters, and
 * answer its authentication. Returns the AuthenticationOk message, or undefined when the backend refused
 * (its error went to the client). Notices and protocol negotiation before that are passed on.
 */
const startBackend = async (
  backend: Socket,
  reader: MessageReader,
  clientParams: Map<string, string>,
  target: DatabaseProxyOptions['backend'] & { user: string },
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

/** Whole protocol messages from a socket, read on demand while a connection is set up. */
class MessageReader {
  private buffer: Buffer = Buffer.alloc(0);
  private wake: (() => void) | undefined;
  private ended = false;
  private failure: Error | undefined;

  constructor(private readonly socket: Duplex) {
    socket.on('data', this.onData);
    socket.on('error', this.onError);
    socket.on('end', this.onEnd);
    socket.on('close', this.onEnd);
  }

  private readonly onData = (chunk: Buffer) => {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    this.wake?.();
  };

  private readonly onError = (error: Error) => {
    this.failure = error;
  };

  private readonly onEnd = () => {
    this.ended = true;
    this.wake?.();
  };

  private async bytes(size: number): Promise<Buffer> {
    while (this.buffer.length < size) {
      if (this.ended) throw new Closed(this.failure?.message ?? 'the connection closed');
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
    const bytes = this.buffer.subarray(0, size);
    this.buffer = this.buffer.subarray(size);
    return bytes;
  }

  /** A startup-phase packet (int32 length, then the rest); returns the rest. */
  async packet(): Promise<Buffer> {
    const length = (await this.bytes(4)).readInt32BE(0);
    if (length < 8 || length > MAX_STARTUP_LENGTH) throw new Error(`invalid startup packet length ${length}`);
    return this.bytes(length - 4);
  }

  /** A typed message (type byte, int32 length, body). */
  async message(): Promise<{ type: string; body: Buffer; raw: Buffer }> {
    const header = await this.bytes(5);
    const length = header.readInt32BE(1);
    if (length < 4 || length > MAX_SETUP_MESSAGE_LENGTH) throw new Error(`invalid message length ${length}`);
    const body = await this.bytes(length - 4);
    return { type: String.fromCharCode(header[0]!), body, raw: Buffer.concat([header, body]) };
  }

  /** Stop reading and hand back whatever arrived past the last message read. */
  release(): Buffer {
    this.socket.off('data', this.onData);
    this.socket.off('error', this.onError);
    this.socket.off('end', this.onEnd);
    this.socket.off('close', this.onEnd);
    this.socket.pause();
    return this.buffer;
  }
}

const startupParameters = (packet: Buffer): Map<string, string> => {
  const parts = packet.subarray(4).toString('utf8').split('\0');
  const params = new Map<string, string>();
  for (let i = 0; i + 1 < parts.length && parts[i] !== ''; i += 2) params.set(parts[i]!, parts[i + 1]!);
  return params;
};

const startupMessage = (params: Map<string, string>): Buffer => {
  const body = Buffer.concat([...[...params].flatMap(([key, value]) => [cstring(key), cstring(value)]), Buffer.from([0])]);
  const header = Buffer.alloc(8);
  header.writeInt32BE(body.length + 8, 0);
  header.writeInt32BE(PROTOCOL_3_0, 4);
  return Buffer.concat([header, body]);
};

const cstring = (text: string) => Buffer.from(`${text}\0`, 'utf8');

const typed = (type: string, body: Buffer): Buffer => {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
};

const authentication = (kind: number): Buffer => {
  const body = Buffer.alloc(4);
  body.writeInt32BE(kind);
  return typed('R', body);
};

/** The human-readable message (field M) of an ErrorResponse body. */
const errorMessage = (body: Buffer): string =>
  body
    .toString('utf8')
    .split('\0')
    .find((field) => field.startsWith('M'))
    ?.slice(1) ?? 'no message';

/** Send a FATAL ErrorResponse and end the connection, as PostgreSQL does when it refuses a client. */
const refuse = (socket: Duplex, code: string, message: string): void => {
  const fields = [
    ['S', 'FATAL'],
    ['V', 'FATAL'],
    ['C', code],
    ['M', message],
  ].map(([field, value]) => cstring(`${field}${value}`));
  if (socket.writable) socket.end(typed('E', Buffer.concat([...fields, Buffer.from([0])])));
  else socket.destroy();
};
