import jsonc from 'jsonc-parser';

/**
 * JSON objects that keep the key order of their text (docs/decisions.md: metadata is returned
 * exactly as sent, key order included).
 *
 * A plain JavaScript object lists integer-like keys ("1", "42") first, in ascending order, whatever
 * order they were set in, so `JSON.parse` then `JSON.stringify` turns `{"b":1,"42":"x"}` into
 * `{"42":"x","b":1}`. An object read here whose text orders its keys otherwise is a Proxy over the
 * plain object whose `ownKeys` answers the text's order: `JSON.stringify`, `Object.keys` and
 * `Object.entries` follow it, so every serializer (REST answers, Yoga's results, graphql-ws
 * messages, Prisma's JSON parameters, webhook bodies) writes the keys as sent, with no step of its
 * own. A copy (`{...o}`, a zod record) is a plain object again: `inSentOrder` puts the order back.
 */

/** An object whose own keys are listed in `keys`' order (the object itself when that is already its order). */
export function keyOrdered<T extends object>(target: T, keys: readonly string[]): T {
  const natural = Object.keys(target);
  if (natural.length === keys.length && natural.every((k, i) => k === keys[i])) return target;
  const order = [...keys];
  return new Proxy(target, { ownKeys: () => order });
}

// A key V8 may list first starts with a digit, written as itself or as a \u escape. Any text
// without one parses in order with JSON.parse alone (the common case, and the fast one).
const MAY_HAVE_INDEX_KEY = /"(?:[0-9]|\\u003[0-9])(?:[^"\\]|\\.)*"\s*:/;

/** Whether JSON.parse may list some object of `text` in another key order than the text's. */
export function mayReorderKeys(text: string): boolean {
  return MAY_HAVE_INDEX_KEY.test(text);
}

/** JSON.parse (the same errors, the same values), with every object in the key order of `text`. */
export function parseJsonInOrder(text: string): unknown {
  const value: unknown = JSON.parse(text);
  return mayReorderKeys(text) ? buildInOrder(text) : value;
}

/** `text` (already known to be valid JSON) read by jsonc-parser's scanner, which reports keys in text order. */
function buildInOrder(text: string): unknown {
  type Frame = { value: Record<string, unknown> | unknown[]; keys: string[]; key: string };
  const stack: Frame[] = [];
  let root: unknown;
  const put = (v: unknown) => {
    const top = stack[stack.length - 1];
    if (!top) root = v;
    else if (Array.isArray(top.value)) top.value.push(v);
    else {
      // As JSON.parse: a repeated key keeps its first place and its last value; `__proto__` is an own key.
      if (!Object.hasOwn(top.value, top.key)) top.keys.push(top.key);
      Object.defineProperty(top.value, top.key, { value: v, writable: true, enumerable: true, configurable: true });
    }
  };
  const end = () => {
    const frame = stack.pop()!;
    put(Array.isArray(frame.value) ? frame.value : keyOrdered(frame.value, frame.keys));
  };
  jsonc.visit(
    text,
    {
      onObjectBegin: () => void stack.push({ value: {}, keys: [], key: '' }),
      onObjectProperty: (key) => void (stack[stack.length - 1]!.key = key),
      onObjectEnd: end,
      onArrayBegin: () => void stack.push({ value: [], keys: [], key: '' }),
      onArrayEnd: end,
      onLiteralValue: put,
    },
    { disallowComments: true, allowTrailingComma: false },
  );
  return root;
}

/**
 * A `json` column's value as read: its text (src/db/pool.ts reads `json` so), parsed in order.
 * A value built in memory rather than read (a row not yet stored) is already an object.
 */
export function jsonColumn(value: unknown): unknown {
  return typeof value === 'string' ? parseJsonInOrder(value) : value;
}

/**
 * `parsed` (a validated copy, so a plain object again) in the key order of `sent`, the object the
 * door read; keys only `parsed` has keep their place after them.
 */
export function inSentOrder<T extends object>(parsed: T, sent: unknown): T {
  if (typeof sent !== 'object' || sent === null) return parsed;
  const sentKeys = Object.keys(sent).filter((k) => Object.hasOwn(parsed, k));
  const rest = Object.keys(parsed).filter((k) => !sentKeys.includes(k));
  return keyOrdered(parsed, [...sentKeys, ...rest]);
}
