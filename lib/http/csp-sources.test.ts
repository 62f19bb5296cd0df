import { describe, expect, it } from "vitest";
import { cspSourceList } from "./csp-sources";
import { formActionPolicy } from "./security-headers";
import { isPlainHost } from "./uri-host";

describe("cspSourceList: the one builder of CSP source lists from client URIs", () => {
  it("keeps plain origins (LDH names, IPv4 and IPv6 literals, ports), sorted, once each", () => {
    expect(cspSourceList(["https://b.example.test/cb?x=1", "https://a.example.test:8443/cb", "https://b.example.test/other",
      "http://127.0.0.1:4000/cb", "https://[2001:db8::1]/cb", "https://xn--bcher-kva.example/cb"]))
      .toBe("http://127.0.0.1:4000 https://[2001:db8::1] https://a.example.test:8443 https://b.example.test "
        + "https://xn--bcher-kva.example");
  });

  it.each([
    ["a host with ';' (a second directive)", "https://0;sandbox/cb"],
    ["a host with a quote", "https://a'unsafe-inline'/cb"],
    ["a host with a comma (a second policy)", "https://a,b/cb"],
    ["a host with '*'", "https://*.example.test/cb"],
    ["an underscore", "https://a_b.example.test/cb"],
    ["a label starting with '-'", "https://-a.example.test/cb"],
    ["not a URL", "not a url; sandbox"],
    ["a scheme other than http(s)", "ftp://files.example.test/"],
    ["an app scheme (not asked for)", "com.example.app:/cb"],
  ])("drops %s", (_, value) => {
    expect(cspSourceList([value, "https://ok.example.test/cb"])).toBe("https://ok.example.test");
  });

  it("is 'none' when nothing is left, and keeps the keywords given", () => {
    expect(cspSourceList(["https://0;sandbox/cb"])).toBe("'none'");
    expect(cspSourceList([])).toBe("'none'");
    expect(cspSourceList(["https://0;sandbox/cb"], { keywords: ["'self'"] })).toBe("'self'");
  });

  it("form-action: the redirect URI's origin, or its app scheme, beside 'self'; a malformed one left out", () => {
    expect(formActionPolicy("https://rp.example.test/cb")).toBe("form-action 'self' https://rp.example.test");
    expect(formActionPolicy("com.example.app:/cb")).toBe("form-action 'self' com.example.app:");
    expect(formActionPolicy("https://0;sandbox/cb")).toBe("form-action 'self'");
    expect(formActionPolicy(undefined)).toBe("form-action 'self'");
  });
});

describe("isPlainHost", () => {
  it.each(["example.test", "a-b.c0.example", "127.0.0.1", "[::1]", "[2001:db8::1]", "localhost"])("accepts %s", (h) => {
    expect(isPlainHost(h)).toBe(true);
  });
  it.each(["0;sandbox", "a b", "a_b", "-a.example", "a-.example", "", "a..b", "example.test.", "[::1", "[zz::1]",
    `${"a".repeat(64)}.example`, "a'b", "a,b"])("refuses %s", (h) => {
    expect(isPlainHost(h)).toBe(false);
  });
});
