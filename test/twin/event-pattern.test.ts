/**
 * EventBridge event patterns as the twin matches them (lib/twin/aws/event-pattern.ts): exact values, prefix and
 * the other content filters it models, nested fields, event arrays; what it does not model is refused when
 * the pattern is read.
 */
import fc from 'fast-check';
import { matchesEventPattern, parseEventPattern } from '../../lib/twin/aws/event-pattern';

/** The pattern the workers stack synthesizes for the ingestion queue's rule. */
const FILES_ARRIVING = {
  source: ['aws.s3'],
  'detail-type': ['Object Created'],
  detail: { bucket: { name: ['files-bucket'] }, object: { key: [{ prefix: 'org/' }] } },
};

const objectCreated = (key: string, overrides: Record<string, unknown> = {}) => ({
  version: '0',
  id: '17793124-05d4-b198-2fde-7ededc63b103',
  'detail-type': 'Object Created',
  source: 'aws.s3',
  account: '000000000000',
  time: '2026-11-27T10:00:00Z',
  region: 'us-east-1',
  resources: ['arn:aws:s3:::files-bucket'],
  detail: { version: '0', bucket: { name: 'files-bucket' }, object: { key, size: 5, etag: 'b1946ac92492d2347c6235b4d2611184' } },
  ...overrides,
});

const matches = (pattern: unknown, event: unknown) => matchesEventPattern(parseEventPattern(pattern), event);

describe('the files-arriving rule', () => {
  test('matches an Object Created event of the bucket under its prefix', () => {
    expect(matches(FILES_ARRIVING, objectCreated('org/1/inv/2/attachments/3/invoice.pdf'))).toBe(true);
    // the same pattern as CloudFormation also takes it: JSON text
    expect(matchesEventPattern(parseEventPattern(JSON.stringify(FILES_ARRIVING)), objectCreated('org/x'))).toBe(true);
  });

  test.each([
    ['another prefix', objectCreated('imports/1.ndjson')],
    ['the prefix not at the start', objectCreated('seeds/org/1')],
    ['another bucket', { ...objectCreated('org/x'), detail: { bucket: { name: 'other' }, object: { key: 'org/x' } } }],
    ['another detail type', objectCreated('org/x', { 'detail-type': 'Object Deleted' })],
    ['another source', objectCreated('org/x', { source: 'aws.s3x' })],
    ['no detail', objectCreated('org/x', { detail: undefined })],
    ['a key that is not a string', { ...objectCreated('org/x'), detail: { bucket: { name: 'files-bucket' }, object: { key: 5 } } }],
  ])('does not match %s', (_, event) => {
    expect(matches(FILES_ARRIVING, event)).toBe(false);
  });
});

describe('values', () => {
  test('exact: JSON values, not their text', () => {
    expect(matches({ n: [5] }, { n: 5 })).toBe(true);
    expect(matches({ n: ['5'] }, { n: 5 })).toBe(false);
    expect(matches({ b: [true] }, { b: true })).toBe(true);
    expect(matches({ b: ['true'] }, { b: true })).toBe(false);
    expect(matches({ v: [null] }, { v: null })).toBe(true);
    expect(matches({ v: [null] }, {})).toBe(false);
    expect(matches({ s: ['Aws.S3'] }, { s: 'aws.s3' })).toBe(false);
  });

  test('a list matches when any entry does; an event array when any element does', () => {
    expect(matches({ s: ['a', 'b'] }, { s: 'b' })).toBe(true);
    expect(matches({ s: ['a'] }, { s: ['x', 'a'] })).toBe(true);
    expect(matches({ s: ['a'] }, { s: ['x', 'y'] })).toBe(false);
    expect(matches({ s: [] }, { s: 'a' })).toBe(false);
  });

  test('every field of the pattern must match; fields the pattern does not name are free', () => {
    expect(matches({ a: ['1'], b: ['2'] }, { a: '1', b: '2', c: '3' })).toBe(true);
    expect(matches({ a: ['1'], b: ['2'] }, { a: '1', b: '3' })).toBe(false);
  });

  test('a list does not match an object, and a nested pattern not a value', () => {
    expect(matches({ detail: ['x'] }, { detail: { x: 1 } })).toBe(false);
    expect(matches({ detail: { x: [1] } }, { detail: 1 })).toBe(false);
  });
});

describe('content filters', () => {
  test('prefix, suffix, equals-ignore-case on strings only', () => {
    expect(matches({ k: [{ prefix: 'org/' }] }, { k: 'org/a' })).toBe(true);
    expect(matches({ k: [{ prefix: '' }] }, { k: 'anything' })).toBe(true);
    expect(matches({ k: [{ suffix: '.pdf' }] }, { k: 'a.pdf' })).toBe(true);
    expect(matches({ k: [{ suffix: '.pdf' }] }, { k: 'a.PDF' })).toBe(false);
    expect(matches({ k: [{ 'equals-ignore-case': 'a.PDF' }] }, { k: 'A.pdf' })).toBe(true);
    expect(matches({ k: [{ prefix: '1' }] }, { k: 12 })).toBe(false);
  });

  test('exists: present as a value, or absent', () => {
    expect(matches({ k: [{ exists: true }] }, { k: 'x' })).toBe(true);
    expect(matches({ k: [{ exists: true }] }, {})).toBe(false);
    expect(matches({ k: [{ exists: false }] }, {})).toBe(true);
    expect(matches({ k: [{ exists: false }] }, { k: 'x' })).toBe(false);
    expect(matches({ d: { k: [{ exists: false }] } }, {})).toBe(true);
  });

  test('anything-but: values or a prefix; never an absent field', () => {
    expect(matches({ k: [{ 'anything-but': 'a' }] }, { k: 'b' })).toBe(true);
    expect(matches({ k: [{ 'anything-but': ['a', 'b'] }] }, { k: 'b' })).toBe(false);
    expect(matches({ k: [{ 'anything-but': { prefix: 'tmp/' } }] }, { k: 'org/x' })).toBe(true);
    expect(matches({ k: [{ 'anything-but': { prefix: 'tmp/' } }] }, { k: 'tmp/x' })).toBe(false);
    expect(matches({ k: [{ 'anything-but': 'a' }] }, {})).toBe(false);
  });

  test('a prefix pattern matches exactly the keys that start with it', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (prefix, key) => {
        expect(matches({ k: [{ prefix }] }, { k: key })).toBe(key.startsWith(prefix));
      }),
    );
  });
});

describe('what the twin does not model is refused when read', () => {
  test.each([
    ['numeric', { n: [{ numeric: ['>', 0] }] }, /does not model the EventBridge filter "numeric"/],
    ['wildcard', { k: [{ wildcard: 'org/*' }] }, /"wildcard"/],
    ['cidr', { ip: [{ cidr: '10.0.0.0/8' }] }, /"cidr"/],
    ['$or', { $or: [{ a: ['1'] }, { b: ['2'] }] }, /does not model "\$or"/],
    ['anything-but suffix', { k: [{ 'anything-but': { suffix: '.tmp' } }] }, /anything-but/],
    ['a value that is not a list', { source: 'aws.s3' }, /list of what matches/],
    ['an empty pattern', {}, /non-empty JSON object/],
    ['two filters in one entry', { k: [{ prefix: 'a', suffix: 'b' }] }, /not a value or one filter/],
  ])('%s', (_, pattern, message) => {
    expect(() => parseEventPattern(pattern)).toThrow(message);
  });
});
