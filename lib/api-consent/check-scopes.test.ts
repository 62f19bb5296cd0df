import { describe, expect, it } from "vitest";
import { networkApiScopeProblem } from "./check-scopes";
import { scopeCarries } from "./consents";

const FRAUD = "dpv:FraudPreventionAndDetection";
const ALLOWED = ["openid", "sim-swap:check", "kyc-match:match", FRAUD, "dpv:IdentityVerification"];

describe("networkApiScopeProblem (the shape of a request's network-API scopes)", () => {
  it("passes requests without network-API scope, and an API scope with exactly one allowed purpose", () => {
    expect(networkApiScopeProblem(["openid", "profile"], ["openid"])).toBeNull();
    expect(networkApiScopeProblem(["openid", "sim-swap:check", FRAUD], ALLOWED)).toBeNull();
    expect(networkApiScopeProblem(["sim-swap:check", "kyc-match:match", FRAUD], ALLOWED)).toBeNull();
  });

  it("refuses an API scope without purpose, with two purposes, or a purpose alone", () => {
    expect(networkApiScopeProblem(["openid", "sim-swap:check"], ALLOWED)).toMatch(/exactly one purpose/);
    expect(networkApiScopeProblem(["sim-swap:check", FRAUD, "dpv:IdentityVerification"], ALLOWED))
      .toMatch(/exactly one purpose scope is allowed/);
    expect(networkApiScopeProblem(["openid", FRAUD], ALLOWED)).toMatch(/without any network API scope/);
  });

  it("refuses the fused dpv:…#scope form and malformed purposes", () => {
    expect(networkApiScopeProblem([`${FRAUD}#sim-swap:check`], ALLOWED)).toMatch(/fused form/);
    expect(networkApiScopeProblem(["sim-swap:check", "dpv:fraud"], ALLOWED)).toMatch(/not a valid purpose/);
  });

  it("refuses API or purpose scopes outside the client's allowed scopes", () => {
    expect(networkApiScopeProblem(["number-verification:verify", FRAUD], ALLOWED)).toMatch(/not allowed.*number-verification:verify/);
    expect(networkApiScopeProblem(["sim-swap:check", "dpv:AccountManagement"], ALLOWED)).toMatch(/not allowed/);
  });
});

describe("scopeCarries", () => {
  it("matches a purpose as a whole scope token, never as a prefix", () => {
    expect(scopeCarries(`openid sim-swap:check ${FRAUD}`, FRAUD)).toBe(true);
    expect(scopeCarries("openid dpv:ServiceProvisionX", "dpv:ServiceProvision")).toBe(false);
  });
});
