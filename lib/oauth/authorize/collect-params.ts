import { InvalidRequest } from "../errors";

/** Every parameter of an authorization request, by canonical name, with all the values sent. */
export type RawParams = Map<string, string[]>;

/**
 * Wire aliases: the operator SDKs send `max-age` and `ui-locales` with hyphens (field notes), and
 * the interface writes `binding message` with a space. A Map, so names like `__proto__` are inert.
 */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ["max-age", "max_age"],
  ["ui-locales", "ui_locales"],
  ["claims-locales", "claims_locales"],
  ["binding message", "binding_message"],
]);

/**
 * Longest value accepted per known parameter. Unknown parameters are ignored (OIDC Core §3.1.2.1),
 * whatever their length; the whole request is bounded separately (MAX_BODY_BYTES).
 */
export const PARAM_LIMITS: ReadonlyMap<string, number> = new Map([
  ["client_id", 200],
  ["redirect_uri", 2048],
  ["response_type", 64],
  ["response_mode", 32],
  ["scope", 1024],
  ["state", 2048],
  ["nonce", 512],
  ["client_name", 256],
  ["acr_values", 64],
  ["display", 16],
  ["prompt", 128],
  ["max_age", 10],
  ["ui_locales", 256],
  ["claims_locales", 256],
  ["id_token_hint", 4096],
  // ENCR_MSISDN of a 4096-bit key is 1024 hex digits plus the prefix
  ["login_hint", 1100],
  ["login_hint_token", 4096],
  ["version", 32],
  ["binding_message", 512],
  ["context", 512],
  ["code_challenge", 128],
  ["code_challenge_method", 16],
  ["request", 4096],
  ["request_uri", 2048],
  ["registration", 4096],
]);

/** Groups name/value pairs by canonical name, keeping repeats so they can be refused by name. */
export function collectParams(pairs: Iterable<[string, string]>): RawParams {
  const out: RawParams = new Map();
  for (const [name, value] of pairs) {
    const key = ALIASES.get(name) ?? name;
    const values = out.get(key);
    if (values) values.push(value);
    else out.set(key, [value]);
  }
  return out;
}

/**
 * The known parameters as single values. A known name sent twice (also as name + alias) is
 * `invalid_request` (RFC 6749 §3.1), so is an over-long value; empty values count as omitted
 * (RFC 6749 §3.1: "parameters sent without a value MUST be treated as if they were omitted").
 */
export function knownParams(raw: RawParams): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, limit] of PARAM_LIMITS) {
    const values = raw.get(name);
    if (!values) continue;
    if (values.length > 1) {
      throw new InvalidRequest(`Multiple parameter names in the authorization request (${name})`);
    }
    const value = values[0]!;
    if (value.length > limit) throw new InvalidRequest(`parameter ${name} is too long (at most ${limit} characters)`);
    if (value !== "") out.set(name, value);
  }
  return out;
}

/** A parameter's only value when it was sent exactly once, within its limit; otherwise undefined. */
export function singleParam(raw: RawParams, name: string): string | undefined {
  const values = raw.get(name);
  const limit = PARAM_LIMITS.get(name) ?? 0;
  return values?.length === 1 && values[0]!.length <= limit && values[0] !== "" ? values[0] : undefined;
}
