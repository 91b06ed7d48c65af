/**
 * fast-check arbitraries from the JSON Schema the zod contracts render to (z.toJSONSchema, as the
 * OpenAPI document does), so a generator follows the contracts without a hand-kept copy of them. Covers
 * what the contracts use: objects (required, additionalProperties), strings (enum, const, pattern,
 * format, lengths), integers and numbers (bounds), booleans, null, arrays, anyOf/oneOf, records.
 */
import fc from 'fast-check';

export interface JsonSchema {
  type?: 'object' | 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array';
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

/**
 * How a free string field (no enum or const) is generated. The default follows the schema (its
 * pattern, else its length bounds); a caller swaps in its own, e.g. to mix in hostile text or known ids.
 */
export type StringLeaf = (schema: JsonSchema) => fc.Arbitrary<string>;

/** Generated text stays short unless the schema asks for more: long strings are a test of their own. */
const SHORT = 40;

export const stringFromSchema: StringLeaf = (schema) =>
  schema.pattern
    ? fc.stringMatching(new RegExp(schema.pattern))
    : fc.string({
        minLength: schema.minLength ?? 0,
        maxLength: Math.max(schema.minLength ?? 0, Math.min(schema.maxLength ?? SHORT, SHORT)),
      });

/** Values the schema accepts (up to refinements JSON Schema cannot say), with free strings from `string`. */
export const arbitraryOf = (schema: JsonSchema, string: StringLeaf = stringFromSchema): fc.Arbitrary<unknown> => {
  const of = (s: JsonSchema): fc.Arbitrary<unknown> => {
    if (s.const !== undefined) return fc.constant(s.const);
    if (s.enum) return fc.constantFrom(...s.enum);
    const union = s.anyOf ?? s.oneOf;
    if (union) return fc.oneof(...union.map(of));
    switch (s.type) {
      case 'string':
        return string(s);
      case 'integer':
        return fc.integer({ min: s.minimum ?? -1_000_000, max: s.maximum ?? 1_000_000 });
      case 'number':
        return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return fc.array(of(s.items ?? {}), { maxLength: 5 });
      case 'object': {
        const properties = Object.fromEntries(Object.entries(s.properties ?? {}).map(([key, value]) => [key, of(value)]));
        const known = fc.record(properties, { requiredKeys: s.required ?? [] });
        if (!s.additionalProperties || Object.keys(properties).length > 0) return known;
        // a record (z.record): free keys, each with its own value
        return fc.dictionary(string({ type: 'string' }), of(s.additionalProperties === true ? {} : s.additionalProperties), { maxKeys: 5 });
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  };
  return of(schema);
};
