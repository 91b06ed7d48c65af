/**
 * Database statements as X-Ray subsegments (one per statement, `begin`/`commit` included), by wrapping
 * the kysely dialect's connections: unlike a kysely plugin, a wrapped executeQuery sees a failed
 * statement too, so its subsegment is closed (with the fault flag) rather than left open.
 * A subsegment carries the statement's kind and first table and the SQLSTATE of a failure — never the
 * SQL text or its parameters, so no evidence text or user data reaches a trace.
 */
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, OperationNode } from 'kysely';
import { tracer } from '#core/tracer';

/** The subsegment's name: X-Ray's service map shows the database as a node of this name. */
export const DATABASE_SUBSEGMENT = 'postgres';

type Node = OperationNode & { [key: string]: unknown };

const tableName = (node: unknown): string | undefined => {
  const n = node as Node | undefined;
  if (n?.kind === 'AliasNode') return tableName(n.node);
  if (n?.kind === 'TableNode') return (n as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
  if (n?.kind === 'FromNode') return tableName((n.froms as unknown[])[0]);
  return undefined;
};

/** `select`, `insert`, … for built queries (the node's kind), the first keyword for raw SQL (`begin`, `set`, …). */
const statementOf = (query: CompiledQuery): { operation: string; table?: string } => {
  const node = query.query as Node;
  if (node.kind === 'RawNode') return { operation: /^\s*(\w+)/.exec(query.sql)?.[1]?.toLowerCase() ?? 'raw' };
  const table = tableName(node.from ?? node.into ?? node.table);
  return { operation: node.kind.replace(/(Query)?Node$/, '').toLowerCase(), ...(table && { table }) };
};

const traceStatement = async <T>(query: CompiledQuery, run: () => Promise<T>): Promise<T> => {
  const parent = tracer.isTracingEnabled() ? tracer.getSegment() : undefined;
  if (!parent) return run();
  const { operation, table } = statementOf(query);
  const subsegment = parent.addNewSubsegment(DATABASE_SUBSEGMENT);
  subsegment.namespace = 'remote';
  subsegment.addSqlData({ database_type: 'PostgreSQL' });
  subsegment.addAnnotation('db_operation', operation);
  if (table) subsegment.addAnnotation('db_table', table);
  try {
    return await run();
  } catch (error) {
    subsegment.addFaultFlag();
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') subsegment.addAnnotation('db_error', code);
    throw error;
  } finally {
    subsegment.close();
  }
};

const traced = new WeakSet<DatabaseConnection>();

/** In place (pg's connection keeps its client in a private field, which a proxy would not reach). */
const traceConnection = (connection: DatabaseConnection): DatabaseConnection => {
  if (traced.has(connection)) return connection;
  const execute = connection.executeQuery.bind(connection);
  connection.executeQuery = (query, options) => traceStatement(query, () => execute(query, options));
  traced.add(connection);
  return connection;
};

const tracedDriver = (driver: Driver): Driver => {
  const acquire = driver.acquireConnection.bind(driver);
  driver.acquireConnection = async () => traceConnection(await acquire());
  return driver;
};

/** The dialect with every statement of its connections traced. */
export const tracedDialect = (dialect: Dialect): Dialect => ({
  createAdapter: () => dialect.createAdapter(),
  createDriver: () => tracedDriver(dialect.createDriver()),
  createIntrospector: (db) => dialect.createIntrospector(db),
  createQueryCompiler: () => dialect.createQueryCompiler(),
});
