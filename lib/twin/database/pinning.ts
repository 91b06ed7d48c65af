/**
 * What RDS Proxy pins a client's session to its database connection for, read off the client's messages as the
 * proxy reads them. AWS ("Avoiding pinning an RDS Proxy", the conditions for PostgreSQL) lists SET commands and
 * set_config, prepared statements (PREPARE, EXECUTE, DEALLOCATE), temporary tables, sequences and views, cursors,
 * discarding the session state, LISTEN, loading a library, the sequence functions and the advisory-lock functions;
 * a call to a stored function is not inspected. The advisory-lock check takes in the transaction-level functions too
 * (the list's "such as" leaves them open): the service sets what lasts a transaction through functions of its own
 * (layers/core/db/transaction-state.ts). A named statement of the extended protocol counts as prepared; the unnamed
 * one, which node-postgres uses for every query, does not.
 */

import { readCString, takeMessage } from './wire';

const STATEMENT_CONDITIONS: { reason: string; pattern: RegExp }[] = [
  { reason: 'A SET statement was detected', pattern: /(?:^|;)\s*(?:set|reset)\b/i },
  { reason: 'A set_config call was detected', pattern: /\bset_config\s*\(/i },
  { reason: 'A prepared statement was detected', pattern: /(?:^|;)\s*(?:prepare|execute|deallocate)\b/i },
  { reason: 'A temporary table, sequence or view was created', pattern: /\bcreate\s+(?:(?:global|local)\s+)?temp(?:orary)?\b/i },
  { reason: 'A cursor was declared', pattern: /(?:^|;)\s*declare\b/i },
  { reason: 'The session state was discarded', pattern: /(?:^|;)\s*discard\b/i },
  { reason: 'A notification channel was listened on', pattern: /(?:^|;)\s*listen\b/i },
  { reason: 'A library was loaded', pattern: /(?:^|;)\s*load\b/i },
  { reason: 'A sequence function was called', pattern: /\b(?:nextval|setval|currval|lastval)\s*\(/i },
  { reason: 'An advisory lock function was called', pattern: /\bpg_(?:try_)?advisory_\w*\s*\(/i },
];

/** The statement's text without what cannot be a command: comments, string literals, dollar-quoted bodies. */
const commandText = (statement: string): string =>
  statement
    .replace(/\$(\w*)\$[\s\S]*?\$\1\$/g, "''")
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ');

/** Pure: why a statement pins its session, or undefined. */
export const pinningReason = (statement: string): string | undefined => {
  const text = commandText(statement);
  return STATEMENT_CONDITIONS.find(({ pattern }) => pattern.test(text))?.reason;
};

/**
 * Pure: why one frontend message pins its session, or undefined: a simple Query's statements, or a Parse's
 * statement and name (a named statement is a prepared statement that outlives the exchange).
 */
export const messagePinningReason = (type: string, body: Buffer): string | undefined => {
  if (type === 'Q') return pinningReason(readCString(body, 0)[0]);
  if (type !== 'P') return undefined;
  const [name, next] = readCString(body, 0);
  if (name !== '') return 'A prepared statement was detected';
  return pinningReason(readCString(body, next)[0]);
};

/** Reads a client's messages after its startup (type byte, length, body) as they stream past, chunk by chunk. */
export class PinningWatch {
  private buffer: Buffer = Buffer.alloc(0);
  /** pinned once, the session stays pinned until it ends: nothing more to read */
  private pinned = false;

  /** Reads a chunk; returns the reason, with the message, the first time the session is pinned. */
  feed(chunk: Buffer): { reason: string; message: string } | undefined {
    if (this.pinned) return undefined;
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (let taken = takeMessage(this.buffer); taken; taken = takeMessage(this.buffer)) {
      this.buffer = taken.rest;
      const reason = messagePinningReason(taken.type, taken.body);
      if (reason) {
        this.pinned = true;
        this.buffer = Buffer.alloc(0);
        return { reason, message: taken.body.toString('utf8').replaceAll('\0', ' ').trim().slice(0, 200) };
      }
    }
    return undefined;
  }
}
