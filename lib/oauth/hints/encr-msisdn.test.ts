import { generateKeyPairSync } from "node:crypto";
import type { JWK } from "jose";
import { describe, expect, it } from "vitest";
import { decryptMsisdn, encryptMsisdn } from "./encr-msisdn";

const pair = () => generateKeyPairSync("rsa", { modulusLength: 2048 });
const { publicKey, privateKey } = pair();
const publicJwk = publicKey.export({ format: "jwk" }) as JWK;

describe("ENCR_MSISDN", () => {
  it("round-trips an MSISDN, with fresh random padding every time", () => {
    const a = encryptMsisdn({ msisdn: "447700900001", publicJwk });
    const b = encryptMsisdn({ msisdn: "447700900001", publicJwk });
    expect(a).toMatch(/^[0-9a-f]{512}$/);
    expect(a).not.toBe(b);
    expect(decryptMsisdn({ value: a, privateKey })).toBe("447700900001");
    expect(decryptMsisdn({ value: b.toUpperCase(), privateKey })).toBe("447700900001");
  });

  it("returns null for tampered values", () => {
    const value = encryptMsisdn({ msisdn: "447700900001", publicJwk });
    for (const at of [0, 100, 511]) {
      const flipped = value.slice(0, at) + (value[at] === "0" ? "1" : "0") + value.slice(at + 1);
      expect(decryptMsisdn({ value: flipped, privateKey }), `flip at ${at}`).toBeNull();
    }
    // Drop the LAST byte: dropping the first one is a no-op whenever it is 0x00 (1 ciphertext in 256),
    // since RSA reads the bytes as one number.
    expect(decryptMsisdn({ value: value.slice(0, -2), privateKey })).toBeNull();
  });

  it("returns null for garbage, another key's ciphertext, or a value that is not an MSISDN", () => {
    for (const garbage of ["", "zz", "abc", "00", "ff".repeat(256), "0".repeat(4096), "447700900001"]) {
      expect(decryptMsisdn({ value: garbage, privateKey }), garbage.slice(0, 20)).toBeNull();
    }
    const other = pair().publicKey.export({ format: "jwk" }) as JWK;
    expect(decryptMsisdn({ value: encryptMsisdn({ msisdn: "447700900001", publicJwk: other }), privateKey })).toBeNull();
    expect(decryptMsisdn({ value: encryptMsisdn({ msisdn: "0123", publicJwk }), privateKey })).toBeNull();
  });
});
