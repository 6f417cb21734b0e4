import jsonc from 'jsonc-parser';
import { AppError } from '../errors.js';

/**
 * The first key that one object of `text` (valid JSON) names twice, at any depth, compared as
 * JSON.parse reads keys (escapes decoded: `"a"` and `"\u0061"` are one key); undefined when none.
 * JSON.parse keeps a repeated key's last value without a word, so `{"sender": <a phone>, …,
 * "sender": <the bank>}` would say one sender to a reader that keeps the first and another to us
 * (docs/security.md). jsonc-parser's visitor (Microsoft's, VS Code's JSON scanner) reports each
 * property as it is scanned, so no tree is built: a 1 MB backfill batch takes milliseconds.
 */
export function repeatedKey(text: string): string | undefined {
  const open: Set<string>[] = [];
  let repeated: string | undefined;
  jsonc.visit(
    text,
    {
      onObjectBegin: () => void open.push(new Set()),
      onObjectEnd: () => void open.pop(),
      onObjectProperty: (key) => {
        const keys = open[open.length - 1];
        if (keys === undefined) return;
        if (keys.has(key)) repeated ??= key;
        keys.add(key);
      },
    },
    { disallowComments: true, allowTrailingComma: false },
  );
  return repeated;
}

/** 400 `invalid_json` with `details.key` when `text` repeats a key in one object (the device routes, docs/security.md). */
export function refuseRepeatedKeys(text: string): void {
  const key = repeatedKey(text);
  if (key !== undefined) throw new AppError('invalid_json', `The key "${key}" appears twice in one object: each key may be given once.`, { key });
}
