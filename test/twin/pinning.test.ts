/**
 * What the RDS Proxy stand-in counts as pinning a session (lib/twin/database/pinning.ts): AWS's conditions for
 * PostgreSQL, read off the statement's commands only; the service's own transaction-scoped calls pass.
 */
import { messagePinningReason, pinningReason } from '../../lib/twin/database/pinning';

test.each([
  [`set work_mem = '64MB'`, 'A SET statement was detected'],
  ['SET LOCAL jit = off', 'A SET statement was detected'],
  ['select 1; reset all', 'A SET statement was detected'],
  [`select set_config('jit', 'off', true)`, 'A set_config call was detected'],
  ['prepare doubled as select 1', 'A prepared statement was detected'],
  ['deallocate all', 'A prepared statement was detected'],
  ['create temp table scratch (id int)', 'A temporary table, sequence or view was created'],
  ['CREATE LOCAL TEMPORARY SEQUENCE s', 'A temporary table, sequence or view was created'],
  ['declare c cursor for select 1', 'A cursor was declared'],
  ['discard all', 'The session state was discarded'],
  ['listen analyses', 'A notification channel was listened on'],
  [`load 'auto_explain'`, 'A library was loaded'],
  [`select nextval('orders_id_seq')`, 'A sequence function was called'],
  ['select pg_advisory_lock(1)', 'An advisory lock function was called'],
  [`select pg_try_advisory_xact_lock(hashtext('x'))`, 'An advisory lock function was called'],
])('%s pins: %s', (statement, reason) => {
  expect(pinningReason(statement)).toBe(reason);
});

test.each([
  'update analyses set status = $1 where id = $2',
  'insert into t (a) values ($1) on conflict (a) do update set a = excluded.a',
  'select set_transaction_settings($1::text[], $2::text[])',
  `select transaction_advisory_lock(hashtext('ai-quota:' || $1::text))`,
  `select 'set x = 1; select set_config(' as quoted -- set y = 2`,
  `create function f() returns void language plpgsql as $body$ begin perform set_config('a', 'b', true); perform pg_advisory_xact_lock(1); end $body$`,
  'begin',
  'start transaction isolation level serializable',
])('%s does not pin', (statement) => {
  expect(pinningReason(statement)).toBeUndefined();
});

test('a Parse message: the unnamed statement is read like a query; a named one is a prepared statement', () => {
  const parse = (name: string, text: string) => Buffer.from(`${name}\0${text}\0\0\0`, 'utf8');
  expect(messagePinningReason('P', parse('', 'select $1::int'))).toBeUndefined();
  expect(messagePinningReason('P', parse('', 'set jit = off'))).toBe('A SET statement was detected');
  expect(messagePinningReason('P', parse('s1', 'select $1::int'))).toBe('A prepared statement was detected');
  expect(messagePinningReason('Q', Buffer.from('listen x\0'))).toBe('A notification channel was listened on');
  expect(messagePinningReason('B', Buffer.from('\0\0'))).toBeUndefined();
});
