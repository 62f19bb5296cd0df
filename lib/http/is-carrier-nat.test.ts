import { afterAll, describe, expect, it } from "vitest";

// Before anything reads the configuration: the ranges of a made-up operator.
const saved = process.env.CARRIER_NAT_RANGES;
process.env.CARRIER_NAT_RANGES = "100.64.0.0/10 2001:db8:ca7::/48";
const { isCarrierNat } = await import("./is-carrier-nat");
afterAll(() => {
  process.env.CARRIER_NAT_RANGES = saved;
});

describe("isCarrierNat", () => {
  it("matches IPv4 and IPv6 addresses inside the configured ranges only", () => {
    expect(isCarrierNat("100.64.0.1")).toBe(true);
    expect(isCarrierNat("100.127.255.254")).toBe(true);
    expect(isCarrierNat("100.128.0.1")).toBe(false);
    expect(isCarrierNat("2001:db8:ca7:42::1")).toBe(true);
    expect(isCarrierNat("2001:db8:ca8::1")).toBe(false);
    expect(isCarrierNat("unknown")).toBe(false);
  });
});
