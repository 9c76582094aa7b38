/**
 * An MCP tool's input schema reduced to what llama-server v0.5.0 turns into a grammar
 * (common/json-schema-to-grammar.cpp): a schema it cannot convert fails every request that
 * offers the tool, so one server's odd schema must not break every turn.
 *
 * What the converter refuses, it refuses for good: a `$ref` it cannot resolve ("Unresolved
 * $ref"; only refs into the same document resolve) and a `pattern` that is not a valid regex
 * ("Invalid pattern"). Patterns only narrow what the model may write, and the server checks
 * its own arguments, so every `pattern` goes; a ref that does not point inside the schema
 * becomes "any value". What is left must be an object schema of sensible size; a tool whose
 * schema is still not that is left out, with the reason.
 */

const MAX_DEPTH = 24;
const MAX_BYTES = 40_000;

export type Reduced = { ok: true; parameters: Record<string, unknown> } | { ok: false; reason: string };

type Json = Record<string, unknown>;

function resolvable(ref: string, root: Json): boolean {
  if (!ref.startsWith('#/')) return false;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object' || !(key in (node as Json))) return false;
    node = (node as Json)[key];
  }
  return Boolean(node && typeof node === 'object');
}

function reduceNode(node: unknown, root: Json, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new Error(`it nests deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(node)) return node.map((n) => reduceNode(n, root, depth + 1));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === 'pattern' || key === 'patternProperties' || key === '$schema' || key === '$id') continue;
    if (key === '$ref') {
      if (typeof value === 'string' && resolvable(value, root)) out.$ref = value;
      continue;
    }
    // Names of properties are data, not keywords: only their schemas are reduced.
    out[key] =
      key === 'properties' || key === '$defs' || key === 'definitions'
        ? Object.fromEntries(Object.entries((value as Json) ?? {}).map(([k, v]) => [k, reduceNode(v, root, depth + 1)]))
        : reduceNode(value, root, depth + 1);
  }
  return out;
}

export function reduceSchema(schema: unknown): Reduced {
  if (schema === undefined || schema === null) return { ok: true, parameters: { type: 'object', properties: {} } };
  if (typeof schema !== 'object' || Array.isArray(schema)) return { ok: false, reason: 'its input schema is not a JSON object' };
  const root = schema as Json;
  if (root.type !== undefined && root.type !== 'object')
    return { ok: false, reason: `its input schema is of type ${JSON.stringify(root.type)}, not an object` };
  if (JSON.stringify(root).length > MAX_BYTES) return { ok: false, reason: `its input schema is larger than ${MAX_BYTES / 1000} KB` };
  try {
    const reduced = reduceNode(root, root, 0) as Json;
    return { ok: true, parameters: { type: 'object', properties: {}, ...reduced } };
  } catch (err) {
    return { ok: false, reason: `its input schema cannot be used: ${(err as Error).message}` };
  }
}
