import { describe, expect, it } from "vitest";
import { checkScopes } from "../clients/client-fields";
import { parseConfig } from "../config";
import { TEST_SECRETS } from "../../test/support/server";

describe("clients may be registered with network-API and purpose scopes", () => {
  it("checkScopes (admin and dynamic registration) accepts API and dpv: purpose scopes, not unknown ones", () => {
    expect(checkScopes(["openid sim-swap:check kyc-match:match dpv:FraudPreventionAndDetection"]))
      .toEqual(["openid", "sim-swap:check", "kyc-match:match", "dpv:FraudPreventionAndDetection"]);
    expect(() => checkScopes(["openid sim-swap:nope"])).toThrow(/unknown scope/);
    expect(() => checkScopes(["openid dpv:lowercase"])).toThrow(/unknown scope/);
  });

  it("REGISTRATION_SCOPES may open API and purpose scopes to dynamic registration (not by default)", () => {
    const base = { ...TEST_SECRETS, DATABASE_URL: "file:/tmp/x.db" };
    expect(parseConfig(base).REGISTRATION_SCOPES).not.toContain("sim-swap:check");
    expect(parseConfig({ ...base, REGISTRATION_SCOPES: "openid sim-swap:check dpv:FraudPreventionAndDetection" })
      .REGISTRATION_SCOPES).toEqual(["openid", "sim-swap:check", "dpv:FraudPreventionAndDetection"]);
  });
});
