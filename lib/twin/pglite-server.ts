/**
 * One embedded PGlite served over the PostgreSQL wire protocol on 127.0.0.1, to many connections, the
 * way the twin's functions need it: PGlite has a single session, so a connection gets it for a whole
 * exchange — everything up to its Sync or simple Query, which keeps an extended-protocol sequence
 * (Parse/Bind/Describe/Execute, unnamed statement and portal) from interleaving with another's — and
 * keeps it for as long as its transaction is open, so transactions are serializable by construction
 * (as PostgreSQL's would be to each other). A connection that goes away mid-transaction is rolled back.
 * (@electric-sql/pglite-socket queues single messages, which lets two clients' extended-protocol
 * messages interleave in the one session: it lost an INSERT … RETURNING here under concurrent use.)
 */
import net from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

export interface PgliteServer { port: number; stop: () => Promise<void> }

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

  holds(who: object): boolean { return this.owner === who; }
}

export const startPgliteServer = async (db: PGlite, options: { log?: (line: string) => void } = {}): Promise<PgliteServer> => {
  const lock = new SessionLock();
  const sockets = new Set<net.Socket>();

  const serve = (socket: net.Socket) => {
    const connection = {};
    sockets.add(socket);
    socket.setNoDelay(true); // a response goes out in several writes: Nagle would hold each behind the client's delayed ACK
    let buffer = Buffer.alloc(0);
    let started = false;
    let batch: Buffer[] = [];
    let work = Promise.resolve();
    let closed = false;

    const run = (messages: Buffer[]) => {
      work = work.then(async () => {
        if (closed) return;
        await lock.acquire(connection);
        try {
          for (const message of messages) {
            await db.runExclusive(() => db.execProtocolRawStream(new Uint8Array(message), {
              onRawData: (data) => { if (!socket.destroyed) socket.write(Buffer.from(data)); },
            }));
          }
        } finally {
          // the session stays this connection's while its transaction is open
          if (!db.isInTransaction()) lock.release(connection);
        }
      }).catch((error: unknown) => {
        options.log?.(`[pglite] ${(error as Error).message}`);
        socket.destroy();
      });
    };

    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          const message = buffer.subarray(0, length);
          buffer = buffer.subarray(length);
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) { socket.write('N'); continue; }
          if (code === CANCEL_REQUEST) { socket.end(); return; }
          if (code !== PROTOCOL_3) { socket.destroy(); return; }
          started = true;
          run([Buffer.from(message)]);
          continue;
        }
        if (buffer.length < 5) return;
        const length = buffer.readInt32BE(1) + 1;
        if (buffer.length < length) return;
        const message = Buffer.from(buffer.subarray(0, length));
        buffer = buffer.subarray(length);
        const type = String.fromCharCode(message[0]!);
        if (type === 'X') { socket.end(); return; }
        batch.push(message);
        // an exchange ends with Sync, a simple Query or Flush: run it whole
        if (type === 'S' || type === 'Q' || type === 'H') {
          run(batch);
          batch = [];
        }
      }
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
  return {
    port: (server.address() as net.AddressInfo).port,
    stop: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
};
