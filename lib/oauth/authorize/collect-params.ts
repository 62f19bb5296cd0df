import { AUTHORIZE_TABLE } from "../../parameters/parameter-table";
import {
  groupPairs, knownValues, valueIfValid, type ParameterFaults, type RawParams,
} from "../../parameters/read-parameters";
import { InvalidRequest } from "../errors";

/*
 * The authorization request's parameters, read by the one parameter reader (lib/parameters) under the
 * /authorize table (AUTHORIZE_PARAMETERS in lib/parameters/parameter-schema.ts: names, aliases, limits).
 */

/** Every parameter of an authorization request, by canonical name, with all the values sent. */
export type { RawParams };

/** Once client and redirect URI are verified, a bad parameter is `invalid_request`, redirected (RFC 6749 §4.1.2.1). */
const REDIRECTED_FAULTS: ParameterFaults = {
  repeated: (name) => new InvalidRequest(`Multiple parameter names in the authorization request (${name})`),
  tooLong: (name, limit) => new InvalidRequest(`parameter ${name} is too long (at most ${limit} characters)`),
};

/** Groups name/value pairs by canonical name (aliases resolved), keeping repeats so they can be refused by name. */
export function collectParams(pairs: Iterable<[string, string]>): RawParams {
  return groupPairs(pairs, AUTHORIZE_TABLE);
}

/**
 * The known parameters as single values. A known name sent twice (also as name + alias) is
 * `invalid_request` (RFC 6749 §3.1), so is an over-long value; empty values count as omitted
 * (RFC 6749 §3.1: "parameters sent without a value MUST be treated as if they were omitted").
 */
export function knownParams(raw: RawParams): Map<string, string> {
  return knownValues(raw, AUTHORIZE_TABLE, REDIRECTED_FAULTS);
}

/** A parameter's only value when it was sent exactly once, within its limit; otherwise undefined. */
export function singleParam(raw: RawParams, name: string): string | undefined {
  return valueIfValid(raw, name, AUTHORIZE_TABLE);
}
