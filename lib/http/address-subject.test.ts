import { describe, expect, it } from "vitest";
import { addressSubject } from "./address-subject";

describe("addressSubject", () => {
  it("keeps an IPv4 address and anything that is not an IPv6 address", () => {
    expect(addressSubject("198.51.100.7")).toBe("198.51.100.7");
    expect(addressSubject("unknown")).toBe("unknown");
  });

  it("reduces IPv6 to its /64, however the address is written", () => {
    expect(addressSubject("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:0db8:0001:0002:ffff:0:0:9")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:DB8:1:2:a:b:c:d")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressSubject("::1")).toBe("0:0:0:0::/64");
    expect(addressSubject("fe80::1:2:3:4")).toBe("fe80:0:0:0::/64");
    expect(addressSubject("2001:db8:1:2::192.0.2.1")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:db8:1:3::1")).not.toBe(addressSubject("2001:db8:1:2::1"));
  });
});
