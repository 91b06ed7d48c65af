/**
 * A local stand-in for RDS Proxy, so functions reach the database exactly as deployed: TLS required; the
 * client authenticated as the proxy authenticates it — with an RDS IAM auth token whose signer's policy
 * allows `rds-db:connect` on the proxy user (IAMAuth REQUIRED), else with the secret's username and
 * password —; then one backend connection per client to real PostgreSQL or the twin's PGlite server
 * (./pglite-server.ts), signed in with the secret's current value, with the bytes piped both ways
 * (PostgreSQL protocol 3.0). The secret is read for each connection, so a rotation is picked up.
 *
 * This file is the connection's course (TLS, faults, piping); the protocol's messages are ./wire.ts, the
 * clients' authentication ./client-auth.ts (its IAM decision ../iam), the proxy's own sign-in ./backend-sign-in.ts.
 */
import { connect, createServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { TLSSocket } from 'node:tls';
import { startBackend } from './backend-sign-in';
import { PinningWatch } from './pinning';
import { authenticate, authenticateIam, type IamAuthOptions } from './client-auth';
import { CANCEL_REQUEST, Closed, GSSENC_REQUEST, MessageReader, PROTOCOL_3_0, refuse, SSL_REQUEST, startupParameters } from './wire';

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
  /** the client sessions RDS Proxy would have pinned to their database connection (./pinning.ts), oldest first */
  pinnedSessions(): readonly PinnedSession[];
  stop(): Promise<void>;
}

interface PinnedSession {
  reason: string;
  /** the message that pinned it, as sent (statement text, shortened) */
  message: string;
  at: Date;
}

export const startDatabaseProxy = async (options: DatabaseProxyOptions): Promise<DatabaseProxy> => {
  const connections = new Map<() => void, Connection>();
  const pinned: PinnedSession[] = [];
  const server = createServer((socket) => {
    if (current !== 'hung') return void serve(socket, options, connections, (session) => pinned.push(session));
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
    pinnedSessions: () => pinned,
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
const serve = async (
  raw: Socket,
  options: DatabaseProxyOptions,
  connections: Map<() => void, Connection>,
  onPinned: (session: PinnedSession) => void,
): Promise<void> => {
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
    // what the client sends is read as RDS Proxy reads it, for what would pin its session (logged as the proxy logs it)
    const watch = new PinningWatch();
    const inspect = (chunk: Buffer) => {
      const pin = watch.feed(chunk);
      if (!pin) return;
      onPinned({ ...pin, at: new Date() });
      log(
        `The client session was pinned to the database connection for the remainder of the session. The proxy can't reuse this connection until the session ends. Reason: ${pin.reason}. Statement: ${pin.message}`,
      );
    };
    const early = reader.release();
    if (early.length > 0) {
      inspect(early);
      backend.write(early);
    }
    socket.on('data', inspect);
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
