import { InvalidScope } from "../oauth/errors";
import { isPurposeScope, splitNetworkApiScopes, type NetworkApiScope } from "../network-apis/camara-scopes";
import { declaredBases, type LegalBasis } from "./purposes";

/** A request's network-API part once checked: its API scopes, its one purpose, and each scope's declared basis. */
export interface NetworkApiRequest {
  apiScopes: NetworkApiScope[];
  purpose: string;
  bases: Map<string, LegalBasis>;
}

/** The fused form `dpv:<Purpose>#<scope>` (removed from the CAMARA profile in May 2024) and anything like it. */
const FUSED = /^dpv:.*#/;

/**
 * The shape of a request's network-API scopes (pure, docs/network-apis.md "Scopes and purposes"): when any API
 * scope is present, exactly one `dpv:` purpose scope; no fused `dpv:…#scope`; a purpose scope without an API
 * scope is refused too (it would mean nothing). Scopes outside the client's allowedScopes are refused elsewhere
 * first (validateScope) but checked again here for the grants that do not go through it. Returns the error
 * description, or null. Requests without any `dpv:` or API scope always pass.
 */
export function networkApiScopeProblem(scopes: readonly string[], allowedScopes: readonly string[]): string | null {
  const fused = scopes.find((s) => FUSED.test(s));
  if (fused) {
    return `${fused.slice(0, 80)}: the fused form dpv:<Purpose>#<scope> is not supported; send the API scope and `
      + "the purpose scope as two scopes";
  }
  const { apiScopes, purposes } = splitNetworkApiScopes(scopes);
  const badPurpose = scopes.find((s) => s.startsWith("dpv:") && !isPurposeScope(s));
  if (badPurpose) return `${badPurpose.slice(0, 80)} is not a valid purpose scope`;
  if (!apiScopes.length && !purposes.length) return null;
  if (!apiScopes.length) return `purpose ${purposes[0]} given without any network API scope`;
  if (purposes.length === 0) {
    return `network API scope ${apiScopes.join(" ")} requires exactly one purpose scope (dpv:<Purpose>)`;
  }
  if (purposes.length > 1) return `exactly one purpose scope is allowed, got ${purposes.join(" ")}`;
  const refused = [...apiScopes, ...purposes].filter((s) => !allowedScopes.includes(s));
  if (refused.length) return `scope not allowed for this client: ${refused.join(" ")}`;
  return null;
}

/**
 * The full check of a request's network-API scopes, for every entry point that can ask a token (/authorize, /par,
 * /bc-authorize, JWT-bearer, client_credentials): the shape (networkApiScopeProblem), then each (API scope,
 * purpose) pair declared by the operator (ApiPurpose). Throws `invalid_scope` with a clear description. Returns
 * null, without any I/O, for a request without API scope.
 */
export async function checkNetworkApiScopes(scopes: readonly string[], client: { allowedScopes: readonly string[] }):
  Promise<NetworkApiRequest | null> {
  const problem = networkApiScopeProblem(scopes, client.allowedScopes);
  if (problem) throw new InvalidScope(problem);
  const { apiScopes, purposes } = splitNetworkApiScopes(scopes);
  if (!apiScopes.length) return null;
  const purpose = purposes[0]!;
  const bases = await declaredBases({ scopes: apiScopes, purpose });
  const undeclared = apiScopes.filter((s) => !bases.has(s));
  if (undeclared.length) {
    throw new InvalidScope(`${undeclared.join(" ")} cannot be used for the purpose ${purpose} on this server `
      + "(not declared by the operator)");
  }
  return { apiScopes, purpose, bases };
}

/** The API scopes of a checked request whose declared basis is `consent`. */
export function consentBasedScopes(request: NetworkApiRequest): NetworkApiScope[] {
  return request.apiScopes.filter((s) => request.bases.get(s) === "consent");
}
