import { describe, expect, it } from "vitest";
import { parseConfig } from "../config";

const base = { KEY_ENCRYPTION_SECRET: "k".repeat(40), SUBJECT_SECRET: "s".repeat(40) };

describe("network configuration", () => {
  it("defaults: the table resolver, no enrichment, no port header", () => {
    const c = parseConfig(base);
    expect(c.NETWORK_RESOLVER).toBe("table");
    expect(c.NETWORK_ENRICHMENT_HEADER).toBeUndefined();
    expect(c.NETWORK_ENRICHMENT_PROXIES).toEqual([]);
    expect(c.NETWORK_PORT_HEADER).toBeUndefined();
  });

  it("reads the keys; refuses a bad resolver, header name or CIDR", () => {
    const c = parseConfig({ ...base, NETWORK_RESOLVER: "none", NETWORK_ENRICHMENT_HEADER: "X-MSISDN",
      NETWORK_ENRICHMENT_PROXIES: "10.20.0.5/32, 2001:db8::/64", NETWORK_PORT_HEADER: "X-Client-Port" });
    expect(c).toMatchObject({ NETWORK_RESOLVER: "none", NETWORK_ENRICHMENT_HEADER: "x-msisdn",
      NETWORK_PORT_HEADER: "x-client-port" });
    expect(c.NETWORK_ENRICHMENT_PROXIES).toHaveLength(2);
    expect(() => parseConfig({ ...base, NETWORK_RESOLVER: "radius" })).toThrow(/NETWORK_RESOLVER/);
    expect(() => parseConfig({ ...base, NETWORK_ENRICHMENT_HEADER: "X MSISDN" })).toThrow(/NETWORK_ENRICHMENT_HEADER/);
    expect(() => parseConfig({ ...base, NETWORK_ENRICHMENT_HEADER: "Cookie" })).toThrow(/NETWORK_ENRICHMENT_HEADER/);
    expect(() => parseConfig({ ...base, NETWORK_ENRICHMENT_PROXIES: "10.0.0.0/33" })).toThrow(/NETWORK_ENRICHMENT_PROXIES/);
  });
});
