import { describe, expect, it } from "vitest";
import { normaliseMsisdn } from "./normalise-msisdn";

describe("normaliseMsisdn", () => {
  it("accepts the national format of the operator's country", () => {
    expect(normaliseMsisdn("07700 900001", { country: "GB" })).toBe("447700900001");
    expect(normaliseMsisdn("(07700) 900-001", { country: "GB" })).toBe("447700900001");
    expect(normaliseMsisdn("06 12 34 56 78", { country: "FR" })).toBe("33612345678");
  });

  it("accepts international forms whatever the country", () => {
    for (const typed of ["+44 7700 900001", "0044 7700 900001", "447700900001", " +44 (7700) 900.001 "]) {
      expect(normaliseMsisdn(typed, { country: "GB" })).toBe("447700900001");
      expect(normaliseMsisdn(typed)).toBe("447700900001");
    }
  });

  it("refuses a national number without a country, or of another country", () => {
    expect(normaliseMsisdn("07700 900001")).toBeNull();
    expect(normaliseMsisdn("06 12 34", { country: "GB" })).toBeNull();
    expect(normaliseMsisdn("0 1", { country: "GB" })).toBeNull();
  });

  it("refuses junk and numbers too long or too short", () => {
    for (const typed of ["", "abc", "07700 9000O1", "+44 7700 900001 ext 2", "0", "+", "123456", "1234567890123456",
      "07700 900001 900001 9", "x".repeat(41), "<script>"]) {
      expect(normaliseMsisdn(typed, { country: "GB" })).toBeNull();
    }
    expect(normaliseMsisdn(undefined)).toBeNull();
  });

  it("strict (admin CLI, login_hint) keeps the stored form only", () => {
    expect(normaliseMsisdn("+447700900001", { strict: true })).toBe("447700900001");
    expect(normaliseMsisdn("447700900001", { strict: true, country: "GB" })).toBe("447700900001");
    for (const typed of ["07700900001", "0044 7700900001", "44 7700 900001", "00447700900001"]) {
      expect(normaliseMsisdn(typed, { strict: true, country: "GB" })).toBeNull();
    }
  });
});
