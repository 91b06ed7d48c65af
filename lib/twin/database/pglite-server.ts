/**
 * One embedded PGlite served over the PostgreSQL wire protocol on 127.0.0.1, to many connections, the
 * way the twin's functions need it: PGlite has a single session, so a connection gets it for a whole
 * exchange — everything up to its Sync or simple Query, which keeps an extended-protocol sequence
 * (Parse/Bind/Describe/Execute, unnamed statement and portal) from interleaving with another's — and
 * keeps it for as long as its transaction is open, so transactions are serializable by construction
 * (as PostgreSQL's would be to each other). A connection that goes away mid-transaction is rolled back.
 * Sign-in is PostgreSQL's password check against pg_authid, as the RDS instance does it: a role with a
 * password gives it (asked in clear text: the link is the loopback), an unknown role is refused with
 * 28P01, and a role without a password (the twin's own `postgres`) is trusted. PGlite keeps one session
 * user whatever the startup message names; the check is who may open a connection.
 * (@electric-sql/pglite-socket queues single messages, which lets two clients' extended-protocol
 * messages interleave in the one session: it lost an INSERT … RETURNING here under concurrent use.)
 */
import { createHash, createHmac, pbkdf2, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import { promisify } from 'node:util';
import type { PGlite } from '@electric-sql/pglite';
import { CANCEL_REQUEST, GSSENC_REQUEST, PROTOCOL_3_0, readCString, SSL_REQUEST, takeMessage } from './wire';

export interface PgliteServer {
  port: number;
  stop: () => Promise<void>;
}

const pbkdf2Async = promisify(pbkdf2);

/** Whether `password` is the one a pg_authid verifier (SCRAM-SHA-256, or the legacy md5) was made from. */
export const passwordMatches = async (verifier: string, user: string, password: string): Promise<boolean> => {
  const scram = /^SCRAM-SHA-256\$(\d+):([^$]+)\$([^:]+):(.+)$/.exec(verifier);
  if (scram) {
    const [, iterations, salt, storedKey] = scram as unknown as [string, string, string, string];
    const salted = await pbkdf2Async(password, Buffer.from(salt, 'base64'), Number(iterations), 32, 'sha256');
    const clientKey = createHmac('sha256', salted).update('Client Key').digest();
    const expected = Buffer.from(storedKey, 'base64');
    const actual = createHash('sha256').update(clientKey).digest();
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
  if (/^md5[0-9a-f]{32}$/.test(verifier))
    return (
      verifier ===
      `md5${createHash('md5')
        .update(password + user)
        .digest('hex')}`
    );
  return false;
};

const cstring = (text: string) => Buffer.from(`${text}\0`, 'utf8');

const typedMessage = (type: string, body: Buffer): Buffer => {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
};

/** PostgreSQL's FATAL ErrorResponse. */
const fatal = (code: string, text: string): Buffer =>
  typedMessage(
    'E',
    Buffer.concat([
      ...[
        ['S', 'FATAL'],
        ['V', 'FATAL'],
        ['C', code],
        ['M', text],
      ].map(([f, v]) => cstring(`${f}${v}`)),
      Buffer.from([0]),
    ]),
  );

const startupUser = (packet: Buffer): string => {
  const parts = packet.subarray(8).toString('utf8').split('\0');
  for (let i = 0; i + 1 < parts.length && parts[i] !== ''; i += 2) if (parts[i] === 'user') return parts[i + 1]!;
  return '';
};

/** A FIFO lock on the PGlite session, held per connection. */
class SessionLock {
  private owner: object | undefined;
  private readonly waiting: { who: object; grant: () => void }[] = [];

  async acquire(who: object): Promise<void> {
    if (this.owner === who) return;
    if (!this.owner) {
      this.owner = who;
      return;
    }
    await new Promise<void>((grant) => this.waiting.push({ who, grant }));
  }

  release(who: object): void {
    if (this.owner !== who) return;
    const next = this.waiting.shift();
    this.owner = next?.who;
    next?.grant();
  }

  forget(who: object): void {
    const i = this.waiting.findIndex((w) => w.who === who);
    if (i >= 0) this.waiting.splice(i, 1);
  }

  holds(who: object): boolean {
    return this.owner === who;
  }
}

/** `unref`: the server alone does not keep the process running (a test worker's database, which outlives its files). */
export const startPgliteServer = async (
  db: PGlite,
  options: { log?: (line: string) => void; unref?: boolean } = {},
): Promise<PgliteServer> => {
  const lock = new SessionLock();
  const sockets = new Set<net.Socket>();

  const serve = (socket: net.Socket) => {
    const connection = {};
    sockets.add(socket);
    socket.setNoDelay(true); // a response goes out in several writes: Nagle would hold each behind the client's delayed ACK
    let buffer: Buffer = Buffer.alloc(0);
    let started = false;
    /** between the startup message and a signed-in session: checking the role, or waiting for its password */
    let signIn: { startup: Buffer; user: string; verifier?: string; checking: boolean } | undefined;
    let batch: Buffer[] = [];
    let work = Promise.resolve();
    let closed = false;

    const run = (messages: Buffer[]) => {
      work = work
        .then(async () => {
          if (closed) return;
          await lock.acquire(connection);
          try {
            for (const message of messages) {
              await db.runExclusive(() =>
                db.execProtocolRawStream(new Uint8Array(message), {
                  onRawData: (data) => {
                    if (!socket.destroyed) socket.write(Buffer.from(data));
                  },
                }),
              );
            }
          } finally {
            // the session stays this connection's while its transaction is open
            if (!db.isInTransaction()) lock.release(connection);
          }
        })
        .catch((error: unknown) => {
          options.log?.(`[pglite] ${(error as Error).message}`);
          socket.destroy();
        });
    };

    const refuse = (code: string, text: string) => {
      if (!socket.destroyed) socket.end(fatal(code, text));
    };
    const failed = (error: unknown) => {
      options.log?.(`[pglite] ${(error as Error).message}`);
      socket.destroy();
    };
    /** signed in: PGlite answers the startup message (AuthenticationOk, parameters, ReadyForQuery) */
    const signedIn = () => {
      const startup = signIn!.startup;
      signIn = undefined;
      run([startup]);
      pump();
    };
    const checkRole = async (pending: NonNullable<typeof signIn>) => {
      const who = {};
      await lock.acquire(who); // the one session answers the look-up, between other connections' exchanges
      let role: { rolpassword: string | null; rolcanlogin: boolean } | undefined;
      try {
        ({
          rows: [role],
        } = await db.query<{ rolpassword: string | null; rolcanlogin: boolean }>(
          'select rolpassword, rolcanlogin from pg_authid where rolname = $1',
          [pending.user],
        ));
      } finally {
        lock.release(who);
      }
      if (closed) return;
      if (role && !role.rolcanlogin) return refuse('28000', `role "${pending.user}" is not permitted to log in`);
      if (role && role.rolpassword === null) return signedIn();
      // an unknown role is asked for a password all the same, and refused after it, as PostgreSQL does
      pending.verifier = role?.rolpassword ?? '';
      pending.checking = false;
      const cleartext = Buffer.alloc(4);
      cleartext.writeInt32BE(3); // AuthenticationCleartextPassword
      socket.write(typedMessage('R', cleartext));
      pump();
    };
    const checkPassword = async (pending: NonNullable<typeof signIn>, password: string) => {
      const matches = pending.verifier !== '' && (await passwordMatches(pending.verifier!, pending.user, password));
      if (closed) return;
      if (!matches) return refuse('28P01', `password authentication failed for user "${pending.user}"`);
      signedIn();
    };

    const pump = () => {
      for (;;) {
        if (signIn) {
          if (signIn.checking) return;
          const reply = takeMessage(buffer);
          if (!reply) return;
          buffer = reply.rest;
          if (reply.type !== 'p') return refuse('08P01', 'expected password response');
          signIn.checking = true;
          void checkPassword(signIn, readCString(reply.body, 0)[0]).catch(failed);
          return;
        }
        if (!started) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          const message = buffer.subarray(0, length);
          buffer = buffer.subarray(length);
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
            socket.write('N');
            continue;
          }
          if (code === CANCEL_REQUEST) {
            socket.end();
            return;
          }
          if (code !== PROTOCOL_3_0) {
            socket.destroy();
            return;
          }
          started = true;
          signIn = { startup: Buffer.from(message), user: startupUser(message), checking: true };
          void checkRole(signIn).catch(failed);
          continue;
        }
        const taken = takeMessage(buffer);
        if (!taken) return;
        buffer = taken.rest;
        const { type } = taken;
        const message = Buffer.from(taken.raw);
        if (type === 'X') {
          socket.end();
          return;
        }
        batch.push(message);
        // an exchange ends with Sync, a simple Query or Flush: run it whole
        if (type === 'S' || type === 'Q' || type === 'H') {
          run(batch);
          batch = [];
        }
      }
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      pump();
    });

    const close = () => {
      if (closed) return;
      closed = true;
      sockets.delete(socket);
      lock.forget(connection);
      work = work.then(async () => {
        if (!lock.holds(connection)) return;
        if (db.isInTransaction()) await db.exec('ROLLBACK').catch(() => undefined);
        lock.release(connection);
      });
    };
    socket.on('close', close);
    socket.on('error', close);
  };

  const server = net.createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  if (options.unref) server.unref();
  return {
    port: (server.address() as net.AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
};
