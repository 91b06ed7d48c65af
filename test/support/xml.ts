/**
 * A strict reader of the XML the service writes (elements, attributes, text, character references; an
 * optional `<?xml …?>` declaration), for tests to parse a report back. Any well-formedness error throws
 * with its offset: a bare `&` or `<`, an unknown entity, a character XML 1.0 cannot carry, mismatched
 * tags. No dependency: the installed XML parsers are lenient (they take a bare `&`) or pull the DOM
 * typings into the whole project.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** the element's own text (not its descendants'), references decoded */
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const NAME = /[A-Za-z_:][\w.:-]*/y;
const SPACE = /[ \t\r\n]*/y;
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

export const parseXml = (xml: string): XmlElement => {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`XML: ${what} at offset ${at}: ${JSON.stringify(xml.slice(at, at + 30))}`);
  };
  const bad = NOT_XML.exec(xml);
  if (bad) {
    at = bad.index;
    fail('a character XML cannot carry');
  }
  const match = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at;
    const m = pattern.exec(xml);
    if (!m) return undefined;
    at += m[0].length;
    return m[0];
  };
  const expect = (literal: string) => {
    if (!xml.startsWith(literal, at)) fail(`expected ${JSON.stringify(literal)}`);
    at += literal.length;
  };
  /** Characters up to one of `stops`, references decoded; a bare `<` or `&` is an error. */
  const chars = (stops: string): string => {
    let out = '';
    while (at < xml.length && !stops.includes(xml[at]!)) {
      const c = xml[at]!;
      if (c === '<') fail('a bare "<"');
      if (c !== '&') {
        out += c;
        at++;
        continue;
      }
      const ref = /&(?:(amp|lt|gt|quot|apos)|#(\d+)|#x([0-9a-fA-F]+));/y;
      ref.lastIndex = at;
      const m = ref.exec(xml) ?? fail('a bare "&" or an unknown entity');
      out += m[1] ? ENTITIES[m[1]]! : String.fromCodePoint(Number.parseInt(m[2] ?? m[3]!, m[2] ? 10 : 16));
      at += m[0].length;
    }
    return out;
  };
  const element = (): XmlElement => {
    expect('<');
    const name = match(NAME) ?? fail('expected a tag name');
    const attributes: Record<string, string> = {};
    for (;;) {
      const space = match(SPACE);
      if (xml.startsWith('/>', at) || xml.startsWith('>', at)) break;
      if (!space) fail('expected a space before an attribute');
      const attribute = match(NAME) ?? fail('expected an attribute name');
      if (attribute in attributes) fail(`attribute ${attribute} twice`);
      match(SPACE);
      expect('=');
      match(SPACE);
      const quote = xml[at] === "'" ? "'" : '"';
      expect(quote);
      attributes[attribute] = chars(quote);
      expect(quote);
    }
    const node: XmlElement = { name, attributes, children: [], text: '' };
    if (xml.startsWith('/>', at)) {
      at += 2;
      return node;
    }
    expect('>');
    for (;;) {
      node.text += chars('<');
      if (at >= xml.length) fail(`<${name}> is not closed`);
      if (xml.startsWith('</', at)) break;
      node.children.push(element());
    }
    expect(`</${name}`);
    match(SPACE);
    expect('>');
    return node;
  };

  if (xml.startsWith('<?xml', at)) {
    at = xml.indexOf('?>', at) + 2;
    if (at === 1) fail('the declaration is not closed');
  }
  match(SPACE);
  const root = element();
  match(SPACE);
  if (at !== xml.length) fail('content after the root element');
  return root;
};

/** Every element named `name` in the tree, in document order. */
export const descendants = (element: XmlElement, name: string): XmlElement[] =>
  element.children.flatMap((child) => [...(child.name === name ? [child] : []), ...descendants(child, name)]);
