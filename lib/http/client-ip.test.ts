import { describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { clientIp } from "./client-ip";

const h = (xff?: string) => new Headers(xff === undefined ? {} : { "x-forwarded-for": xff });

describe("clientIp", () => {
  it("without a trusted proxy takes the peer address the server recorded (rightmost entry)", () => {
    expect(clientIp(h("192.0.2.1"), 0)).toBe("192.0.2.1");
    expect(clientIp(h("::ffff:127.0.0.1"), 0)).toBe("127.0.0.1");
    expect(clientIp(h("2001:db8::1"), 0)).toBe("2001:db8::1");
  });

  it("behind N proxies takes the N-th entry from the right: what the client wrote further left is ignored", () => {
    expect(clientIp(h("6.6.6.6, 198.51.100.7"), 1)).toBe("198.51.100.7");
    expect(clientIp(h("6.6.6.6, 198.51.100.7, 10.0.0.2"), 2)).toBe("198.51.100.7");
    expect(clientIp(h("198.51.100.7"), 2)).toBe("198.51.100.7");
  });

  it("answers 'unknown' for a missing or malformed header", () => {
    expect(clientIp(h(), 0)).toBe("unknown");
    expect(clientIp(h("<script>"), 1)).toBe("unknown");
    expect(clientIp(h("a".repeat(100)), 1)).toBe("unknown");
  });

  it("TRUSTED_PROXY accepts true, false or a count", () => {
    const base = { KEY_ENCRYPTION_SECRET: "k".repeat(32), SUBJECT_SECRET: "s".repeat(32) };
    expect(parseConfig(base).TRUSTED_PROXY).toBe(0);
    expect(parseConfig({ ...base, TRUSTED_PROXY: "true" }).TRUSTED_PROXY).toBe(1);
    expect(parseConfig({ ...base, TRUSTED_PROXY: "2" }).TRUSTED_PROXY).toBe(2);
    expect(() => parseConfig({ ...base, TRUSTED_PROXY: "yes" })).toThrow(/TRUSTED_PROXY/);
    expect(() => parseConfig({ ...base, OTP_SEND_LIMIT_PER_IP: "0" })).toThrow(/OTP_SEND_LIMIT_PER_IP/);
  });
});
