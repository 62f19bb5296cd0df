import { describe, expect, it } from "vitest";
import { AUTHORIZE_PARAMETERS, PROTOCOL_PARAMETERS } from "./parameter-schema";
import { AUTHORIZE_TABLE, PROTOCOL_TABLE } from "./parameter-table";
import { groupPairs, knownValues, onlyValue, readPairs, valueIfValid, type ParameterFaults } from "./read-parameters";

/** Faults that say which rule fired, so the tests read the reader's decision. */
const faults: ParameterFaults = {
  repeated: (name) => new Error(`repeated ${name}`),
  tooLong: (name, limit) => new Error(`too long ${name} ${limit}`),
};

describe("readPairs (the protocol endpoints)", () => {
  it("keeps every name, known or not, one value each", () => {
    expect(readPairs([["grant_type", "x"], ["anything", "y"]], PROTOCOL_TABLE, faults))
      .toEqual(new Map([["grant_type", "x"], ["anything", "y"]]));
  });

  it("refuses the first offending pair as it arrives: a repeat, or a value over 4096", () => {
    expect(() => readPairs([["a", "1"], ["a", "2"]], PROTOCOL_TABLE, faults)).toThrow("repeated a");
    expect(() => readPairs([["a", "x".repeat(4097)]], PROTOCOL_TABLE, faults)).toThrow("too long a 4096");
    expect(() => readPairs([["a", "1"], ["b", "x".repeat(4097)], ["a", "2"]], PROTOCOL_TABLE, faults))
      .toThrow("too long b");
    expect(() => readPairs([["a", "x".repeat(4097)], ["a", "2"]], PROTOCOL_TABLE, faults)).toThrow("too long a");
    expect(readPairs([["a", "x".repeat(4096)]], PROTOCOL_TABLE, faults).get("a")).toHaveLength(4096);
  });

  it("keeps inherited object names inert", () => {
    expect([...readPairs([["__proto__", "x"], ["constructor", "y"]], PROTOCOL_TABLE, faults).keys()])
      .toEqual(["__proto__", "constructor"]);
  });
});

describe("the /authorize reader", () => {
  it("groups aliases under their canonical name, keeping repeats and unknown names", () => {
    const raw = groupPairs([["max-age", "1"], ["max_age", "2"], ["binding message", "b"], ["x", "1"], ["x", "2"]],
      AUTHORIZE_TABLE);
    expect(raw).toEqual(new Map([["max_age", ["1", "2"]], ["binding_message", ["b"]], ["x", ["1", "2"]]]));
  });

  it("checks known parameters in the table's order, a repeat before a length, and drops empty values", () => {
    const raw = groupPairs([["nonce", "1"], ["nonce", "2"], ["state", "s".repeat(2049)]], AUTHORIZE_TABLE);
    expect(() => knownValues(raw, AUTHORIZE_TABLE, faults)).toThrow("too long state 2048"); // state comes first
    expect(() => knownValues(groupPairs([["state", "a"], ["state", "s".repeat(3000)]], AUTHORIZE_TABLE),
      AUTHORIZE_TABLE, faults)).toThrow("repeated state");
    const ok = knownValues(groupPairs([["display", ""], ["scope", "openid"], ["zz", "x".repeat(9000)]],
      AUTHORIZE_TABLE), AUTHORIZE_TABLE, faults);
    expect(ok).toEqual(new Map([["scope", "openid"]]));
  });

  it("reads one value with the caller's faults, undefined when absent or empty", () => {
    const raw = groupPairs([["client_id", ""], ["redirect_uri", "r".repeat(2049)]], AUTHORIZE_TABLE);
    expect(onlyValue(raw, "client_id", 200, faults)).toBeUndefined();
    expect(onlyValue(raw, "missing", 200, faults)).toBeUndefined();
    expect(() => onlyValue(raw, "redirect_uri", 2048, faults)).toThrow("too long redirect_uri 2048");
  });

  it("gives a value only when it passes, without throwing (the state echoed on a redirected error)", () => {
    const raw = groupPairs([["state", "s"], ["nonce", "1"], ["nonce", "2"], ["scope", "x".repeat(1025)], ["zz", "1"]],
      AUTHORIZE_TABLE);
    expect(valueIfValid(raw, "state", AUTHORIZE_TABLE)).toBe("s");
    expect(valueIfValid(raw, "nonce", AUTHORIZE_TABLE)).toBeUndefined();
    expect(valueIfValid(raw, "scope", AUTHORIZE_TABLE)).toBeUndefined();
    expect(valueIfValid(raw, "zz", AUTHORIZE_TABLE)).toBeUndefined(); // not in the table: never read
  });
});

describe("the compiled tables say what the zod schema says", () => {
  /** A deterministic pseudo-random sequence, so a failure can be replayed. */
  function* lengths(seed: number): Generator<number> {
    for (let x = seed; ; ) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      yield x;
    }
  }

  it("/authorize: single values pass the plain loop exactly when they pass AUTHORIZE_PARAMETERS", () => {
    const names = [...AUTHORIZE_TABLE.limits.keys(), "unknown"];
    const random = lengths(16);
    const outcomes = new Set<boolean>();
    for (let i = 0; i < 500; i++) {
      const pairs: Array<[string, string]> = names.filter(() => random.next().value % 3 === 0).map((name) => {
        const limit = AUTHORIZE_TABLE.limits.get(name) ?? 5000;
        const over = random.next().value % 12 === 0;
        return [name, "v".repeat(over ? limit + 1 : limit - (random.next().value % 3))];
      });
      const byZod = AUTHORIZE_PARAMETERS.safeParse(Object.fromEntries(pairs)).success;
      const byLoop = passes(() => knownValues(groupPairs(pairs, AUTHORIZE_TABLE), AUTHORIZE_TABLE, faults));
      expect(byLoop, JSON.stringify(pairs.map(([n, v]) => [n, v.length]))).toBe(byZod);
      outcomes.add(byZod);
    }
    expect(outcomes).toEqual(new Set([true, false]));
  });

  it("the other endpoints: values pass the plain loop exactly when they pass PROTOCOL_PARAMETERS", () => {
    for (const length of [0, 1, 4095, 4096, 4097, 9000]) {
      const pairs: Array<[string, string]> = [["code", "c"], ["any", "v".repeat(length)]];
      expect(passes(() => readPairs(pairs, PROTOCOL_TABLE, faults)))
        .toBe(PROTOCOL_PARAMETERS.safeParse(Object.fromEntries(pairs)).success);
    }
  });

  it("reads aliases and the mc_authz character limits from the schema's metadata", () => {
    expect(AUTHORIZE_TABLE.aliases).toEqual(new Map([["max-age", "max_age"], ["ui-locales", "ui_locales"],
      ["claims-locales", "claims_locales"], ["binding message", "binding_message"]]));
    expect(AUTHORIZE_TABLE.characters).toEqual(new Map([["binding_message", 64], ["context", 256]]));
    expect(AUTHORIZE_TABLE.otherLimit).toBeUndefined();
    expect(PROTOCOL_TABLE.otherLimit).toBe(4096);
  });
});

function passes(read: () => unknown): boolean {
  try {
    read();
    return true;
  } catch {
    return false;
  }
}
