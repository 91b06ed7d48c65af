/**
 * PostgreSQL's frontend/backend protocol 3.0, as far as the proxy speaks it while a connection is set up: the
 * startup packets, typed messages read whole (MessageReader, or takeMessage from bytes at hand), the messages the
 * proxy writes, and its refusals. After setup the proxy pipes bytes, reading the client's for what would pin its
 * session (./pinning.ts).
 */
import type { Duplex } from 'node:stream';

export const PROTOCOL_3_0 = 196608;
export const SSL_REQUEST = 80877103;
export const GSSENC_REQUEST = 80877104;
export const CANCEL_REQUEST = 80877102;
/** PostgreSQL's own bounds: a startup packet of at most 10,000 bytes; setup messages are small. */
const MAX_STARTUP_LENGTH = 10_000;
const MAX_SETUP_MESSAGE_LENGTH = 1 << 20;

export const AUTH_OK = 0;
export const AUTH_CLEARTEXT = 3;
export const AUTH_MD5 = 5;
export const AUTH_SASL = 10;
export const AUTH_SASL_CONTINUE = 11;
export const AUTH_SASL_FINAL = 12;

/** The peer went away (the message says how); nothing to tell that peer. */
export class Closed extends Error {}

/** Whole protocol messages from a socket, read on demand while a connection is set up. */
export class MessageReader {
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

/** The first whole typed message in `buffer` (type byte, int32 length, body) and the bytes after it; undefined until it has all arrived. */
export const takeMessage = (buffer: Buffer): { type: string; body: Buffer; raw: Buffer; rest: Buffer } | undefined => {
  if (buffer.length < 5) return undefined;
  const length = buffer.readInt32BE(1) + 1;
  if (buffer.length < length) return undefined;
  return {
    type: String.fromCharCode(buffer[0]!),
    body: buffer.subarray(5, length),
    raw: buffer.subarray(0, length),
    rest: buffer.subarray(length),
  };
};

/** A message's NUL-terminated string at `from`, and where the next field starts. */
export const readCString = (body: Buffer, from: number): [text: string, next: number] => {
  const end = body.indexOf(0, from);
  return end < 0 ? [body.toString('utf8', from), body.length] : [body.toString('utf8', from, end), end + 1];
};

export const startupParameters = (packet: Buffer): Map<string, string> => {
  const parts = packet.subarray(4).toString('utf8').split('\0');
  const params = new Map<string, string>();
  for (let i = 0; i + 1 < parts.length && parts[i] !== ''; i += 2) params.set(parts[i]!, parts[i + 1]!);
  return params;
};

export const startupMessage = (params: Map<string, string>): Buffer => {
  const body = Buffer.concat([...[...params].flatMap(([key, value]) => [cstring(key), cstring(value)]), Buffer.from([0])]);
  const header = Buffer.alloc(8);
  header.writeInt32BE(body.length + 8, 0);
  header.writeInt32BE(PROTOCOL_3_0, 4);
  return Buffer.concat([header, body]);
};

export const cstring = (text: string) => Buffer.from(`${text}\0`, 'utf8');

export const typed = (type: string, body: Buffer): Buffer => {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
};

export const authentication = (kind: number): Buffer => {
  const body = Buffer.alloc(4);
  body.writeInt32BE(kind);
  return typed('R', body);
};

/** The human-readable message (field M) of an ErrorResponse body. */
export const errorMessage = (body: Buffer): string =>
  body
    .toString('utf8')
    .split('\0')
    .find((field) => field.startsWith('M'))
    ?.slice(1) ?? 'no message';

/** Send a FATAL ErrorResponse and end the connection, as PostgreSQL does when it refuses a client. */
export const refuse = (socket: Duplex, code: string, message: string): void => {
  const fields = [
    ['S', 'FATAL'],
    ['V', 'FATAL'],
    ['C', code],
    ['M', message],
  ].map(([field, value]) => cstring(`${field}${value}`));
  if (socket.writable) socket.end(typed('E', Buffer.concat([...fields, Buffer.from([0])])));
  else socket.destroy();
};
