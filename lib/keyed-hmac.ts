import { createHmac } from "node:crypto";
import { config } from "./config";

/**
 * HMAC-SHA-256 (base64url) of inputs under one key, remembering the last `max` results: the
 * pseudonyms derived from SUBJECT_SECRET (pairwise `sub`, the audit log's subscriber reference)
 * are computed again for the same subscriber on every token and premium info request (~3 µs each).
 * The memo is dropped whole when it is full or when the key changes (another SUBJECT_SECRET).
 */
export function keyedHmac(max = 10_000) {
  let memo = new Map<string, string>();
  let memoKey: string | Buffer | undefined;
  return (key: string | Buffer, input: string): string => {
    if (key !== memoKey) {
      memo = new Map();
      memoKey = key;
    }
    let out = memo.get(input);
    if (out === undefined) {
      out = createHmac("sha256", key).update(input).digest("base64url");
      if (memo.size >= max) memo = new Map();
      memo.set(input, out);
    }
    return out;
  };
}

/**
 * keyedHmac under a key derived from SUBJECT_SECRET for one purpose only (`label`: HMAC(SUBJECT_SECRET, label)), so
 * the values of two purposes never match; the derived key follows the secret if it changes.
 */
export function subjectSecretHmac(label: string): (input: string) => string {
  const hmac = keyedHmac();
  let key: Buffer | undefined;
  let keyFor: string | undefined;
  return (input) => {
    const secret = config().SUBJECT_SECRET;
    if (!key || keyFor !== secret) {
      key = createHmac("sha256", secret).update(label).digest();
      keyFor = secret;
    }
    return hmac(key, input);
  };
}
