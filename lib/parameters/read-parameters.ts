import type { ParameterTable } from "./parameter-table";

/*
 * The one reader of request parameters (compare node-oidc-provider's lib/shared/reject_dupes.js).
 * Its rule, for every endpoint: a parameter sent more than once is refused (RFC 6749 §3.1:
 * "Request and response parameters MUST NOT be included more than once"), then one longer than its
 * limit in the endpoint's table (parameter-schema.ts). What the refusal says, and whether it is shown
 * on our page or redirected, is the caller's: it passes its ParameterFaults.
 */

/** Every parameter of a request by canonical name, with all the values sent (repeats kept). */
export type RawParams = Map<string, string[]>;

/** The errors an endpoint answers a repeated or an over-long parameter with. */
export interface ParameterFaults {
  repeated(name: string): Error;
  tooLong(name: string, limit: number): Error;
}

type Fault = "repeated" | "too_long";

/** The rule: `count` values of a parameter whose (first) value is `value`. */
function faultOf(count: number, value: string, limit: number): Fault | undefined {
  if (count > 1) return "repeated";
  if (value.length > limit) return "too_long";
  return undefined;
}

function raise(fault: Fault, name: string, limit: number, faults: ParameterFaults): never {
  throw fault === "repeated" ? faults.repeated(name) : faults.tooLong(name, limit);
}

/**
 * One value per name, checked as the pairs arrive (the first offending pair is the one reported).
 * Names the table ignores are dropped.
 */
export function readPairs(pairs: Iterable<[string, string]>, table: ParameterTable, faults: ParameterFaults):
  Map<string, string> {
  const out = new Map<string, string>();
  for (const [wireName, value] of pairs) {
    const name = table.aliases.get(wireName) ?? wireName;
    const limit = table.limits.get(name) ?? table.otherLimit;
    if (limit === undefined) continue;
    const fault = faultOf(out.has(name) ? 2 : 1, value, limit);
    if (fault) raise(fault, name, limit, faults);
    out.set(name, value);
  }
  return out;
}

/** Groups pairs by canonical name (aliases resolved), keeping repeats so they can be refused by name. */
export function groupPairs(pairs: Iterable<[string, string]>, table: ParameterTable): RawParams {
  const out: RawParams = new Map();
  for (const [wireName, value] of pairs) {
    const name = table.aliases.get(wireName) ?? wireName;
    const values = out.get(name);
    if (values) values.push(value);
    else out.set(name, [value]);
  }
  return out;
}

/**
 * A parameter's only value, refused with `faults` when repeated or over `limit`; undefined when absent
 * or empty (RFC 6749 §3.1: "parameters sent without a value MUST be treated as if they were omitted").
 */
export function onlyValue(raw: RawParams, name: string, limit: number, faults: ParameterFaults): string | undefined {
  const values = raw.get(name);
  if (!values) return undefined;
  const fault = faultOf(values.length, values[0]!, limit);
  if (fault) raise(fault, name, limit, faults);
  return values[0] || undefined;
}

/** The table's known parameters as single values, checked in the table's order; empty ones omitted. */
export function knownValues(raw: RawParams, table: ParameterTable, faults: ParameterFaults): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, limit] of table.limits) {
    const value = onlyValue(raw, name, limit, faults);
    if (value !== undefined) out.set(name, value);
  }
  return out;
}

/** A parameter's only value when it passes the rule and is not empty; otherwise undefined (never throws). */
export function valueIfValid(raw: RawParams, name: string, table: ParameterTable): string | undefined {
  const values = raw.get(name);
  const limit = table.limits.get(name) ?? table.otherLimit ?? 0;
  if (!values || faultOf(values.length, values[0]!, limit)) return undefined;
  return values[0] || undefined;
}
