/**
 * EventBridge event patterns, as EventBridge matches them: a pattern is a JSON object whose fields name
 * fields of the event; a nested object descends into the event's object of that name, an array lists what
 * the event's value may be (it matches when any entry matches; an event array matches when any of its
 * elements does). An entry is an exact JSON value (string, number, boolean, null) or one of the
 * content filters modelled here: `prefix`, `suffix`, `equals-ignore-case`, `exists` and `anything-but`
 * (values, or a prefix). Any other filter (`numeric`, `wildcard`, `cidr`, `$or`) fails when the plan reads
 * the pattern: the twin matches exactly as EventBridge does, or says it cannot. Pure.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One entry of a field's list. */
type Matcher =
  | { kind: 'value'; value: null | boolean | number | string }
  | { kind: 'prefix'; value: string }
  | { kind: 'suffix'; value: string }
  | { kind: 'equals-ignore-case'; value: string }
  | { kind: 'exists'; value: boolean }
  | { kind: 'anything-but'; values: (boolean | number | string | null)[] }
  | { kind: 'anything-but-prefix'; value: string };

/** A pattern as read: each field a list of matchers, or a nested pattern. */
export interface EventPattern {
  fields: Record<string, Matcher[] | EventPattern>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown): value is null | boolean | number | string =>
  value === null || ['boolean', 'number', 'string'].includes(typeof value);

const string = (filter: string, value: unknown, where: string): string => {
  if (typeof value !== 'string') throw new Error(`${where}: "${filter}" takes a string`);
  return value;
};

const matcherOf = (entry: unknown, where: string): Matcher => {
  if (isScalar(entry)) return { kind: 'value', value: entry };
  if (!isObject(entry) || Object.keys(entry).length !== 1)
    throw new Error(`${where}: ${JSON.stringify(entry)} is not a value or one filter`);
  const [filter, value] = Object.entries(entry)[0]!;
  switch (filter) {
    case 'prefix':
    case 'suffix':
    case 'equals-ignore-case':
      return { kind: filter, value: string(filter, value, where) };
    case 'exists':
      if (typeof value !== 'boolean') throw new Error(`${where}: "exists" takes true or false`);
      return { kind: 'exists', value };
    case 'anything-but': {
      if (isObject(value) && Object.keys(value).length === 1 && 'prefix' in value)
        return { kind: 'anything-but-prefix', value: string('anything-but prefix', value.prefix, where) };
      const values = Array.isArray(value) ? value : [value];
      if (!values.every(isScalar)) throw new Error(`${where}: the twin models "anything-but" with values or a prefix only`);
      return { kind: 'anything-but', values };
    }
    default:
      throw new Error(`${where}: the twin does not model the EventBridge filter "${filter}"`);
  }
};

/** Reads a rule's EventPattern (an object, or its JSON text as CloudFormation also takes it); throws on what it does not model. */
export const parseEventPattern = (pattern: unknown, where = 'the event pattern'): EventPattern => {
  const value: unknown = typeof pattern === 'string' ? JSON.parse(pattern) : pattern;
  if (!isObject(value) || Object.keys(value).length === 0) throw new Error(`${where}: an event pattern is a non-empty JSON object`);
  return {
    fields: Object.fromEntries(
      Object.entries(value).map(([name, field]) => {
        const at = `${where}.${name}`;
        if (name.startsWith('$')) throw new Error(`${at}: the twin does not model "${name}"`);
        if (Array.isArray(field)) return [name, field.map((entry) => matcherOf(entry, at))];
        if (isObject(field)) return [name, parseEventPattern(field, at)];
        throw new Error(`${at}: a pattern field is a list of what matches or a nested pattern`);
      }),
    ),
  };
};

const leafMatches = (matcher: Matcher, value: Json): boolean => {
  switch (matcher.kind) {
    case 'value':
      return value === matcher.value;
    case 'prefix':
      return typeof value === 'string' && value.startsWith(matcher.value);
    case 'suffix':
      return typeof value === 'string' && value.endsWith(matcher.value);
    case 'equals-ignore-case':
      return typeof value === 'string' && value.toLowerCase() === matcher.value.toLowerCase();
    case 'anything-but':
      return !matcher.values.includes(value as null | boolean | number | string);
    case 'anything-but-prefix':
      return typeof value === 'string' && !value.startsWith(matcher.value);
    case 'exists':
      return matcher.value;
  }
};

/** A field's matchers against the event's value there: absent matches `exists: false` only; an array, any of its elements. */
const fieldMatches = (matchers: Matcher[], value: Json | undefined): boolean => {
  if (value === undefined || isObject(value)) return matchers.some((m) => m.kind === 'exists' && !m.value);
  const values = Array.isArray(value) ? value : [value];
  return matchers.some((m) => values.some((v) => !isObject(v) && !Array.isArray(v) && leafMatches(m, v)));
};

/** Whether the event matches the pattern: every field of the pattern must. */
export const matchesEventPattern = (pattern: EventPattern, event: unknown): boolean => {
  const fields = isObject(event) ? (event as Record<string, Json>) : {};
  return Object.entries(pattern.fields).every(([name, field]) =>
    Array.isArray(field) ? fieldMatches(field, fields[name]) : matchesEventPattern(field, fields[name]),
  );
};
