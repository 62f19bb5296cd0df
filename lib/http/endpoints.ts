/**
 * The endpoint registry: every path the service answers outside its screens, in one table. It drives
 * - the provider metadata's endpoint URLs (`metadata`, in the document's order: lib/oauth/discovery.ts),
 * - the lean server's routes (`lean`: server/routes.ts must map exactly these paths, type-checked),
 * - the paths proxy.ts keeps out of its matcher (`kind: "api"`; the literal there is checked against
 *   this table by lib/http/endpoints.test.ts, because Next.js reads it at build time).
 * Each entry is one `app/<path>/route.ts` (`kind: "api"`) or `app/<path>/page.tsx` (`kind: "page"`);
 * the test fails when a file, a metadata key, a lean route or the matcher disagrees with the table.
 * How to add an endpoint: docs/architecture.md#the-endpoint-registry-libhttpendpointsts.
 */
export interface Endpoint {
  /** Relative to the issuer; dynamic segments (`[id]`, `[...nextauth]`) as app/ names its folders. */
  readonly path: string;
  /**
   * `api`: a route handler answering JSON or its own script-free HTML, never a React page, so proxy.ts
   * (CSP nonce for React's scripts) does not run on it. `page`: a React page, proxy.ts runs.
   */
  readonly kind: "api" | "page";
  /** Its key in the provider metadata (OIDC Discovery 1.0 §3, RFC 7009, RFC 7662, RP-Initiated Logout §2.1). */
  readonly metadata?: string;
  /** GET and POST answered by the lean server (server/routes.ts) without Next.js's request pipeline. */
  readonly lean?: true;
}

export const ENDPOINTS = {
  // In the metadata document's order (its keys are written in this order).
  authorization: { path: "/authorize", kind: "api", metadata: "authorization_endpoint", lean: true },
  token: { path: "/token", kind: "api", metadata: "token_endpoint", lean: true },
  userinfo: { path: "/userinfo", kind: "api", metadata: "userinfo_endpoint", lean: true },
  premiuminfo: { path: "/premiuminfo", kind: "api", metadata: "premiuminfo_endpoint", lean: true },
  jwks: { path: "/jwks", kind: "api", metadata: "jwks_uri", lean: true },
  revocation: { path: "/revoke", kind: "api", metadata: "revocation_endpoint", lean: true },
  introspection: { path: "/introspect", kind: "api", metadata: "introspection_endpoint", lean: true },
  /** RFC 9126 pushed authorization requests (lib/oauth/par/handle-pushed-request.ts). */
  pushedAuthorization: { path: "/par", kind: "api", metadata: "pushed_authorization_request_endpoint", lean: true },
  /** OpenID Connect CIBA Core 1.0 §7 (lib/ciba/handle-backchannel-authentication.ts, docs/ciba.md). */
  backchannelAuthentication: { path: "/bc-authorize", kind: "api", metadata: "backchannel_authentication_endpoint",
    lean: true },
  endSession: { path: "/logout", kind: "api", metadata: "end_session_endpoint" },
  /**
   * The spec's `mc_atp_endpoint` (Mobile Connect Account Takeover Protection), today CAMARA SIM Swap: its check
   * operation (lib/network-apis/sim-swap, docs/network-apis.md).
   */
  simSwapCheck: { path: "/sim-swap/v2/check", kind: "api", metadata: "mc_atp_endpoint", lean: true },
  /** OIDC Session Management 1.0 §3.3 (lib/oauth/logout/check-session-iframe.ts). */
  checkSession: { path: "/logout/check-session", kind: "api", metadata: "check_session_iframe" },
  /** RFC 7591 §3 (lib/registration/handle-registration.ts, docs/registration.md). */
  registration: { path: "/register", kind: "api", metadata: "registration_endpoint" },
  policy: { path: "/policy", kind: "page", metadata: "op_policy_uri" },
  docs: { path: "/docs", kind: "page", metadata: "service_documentation" },
  tos: { path: "/terms", kind: "page", metadata: "op_tos_uri" },
  // Not advertised.
  discovery: { path: "/.well-known/openid-configuration", kind: "api", lean: true },
  health: { path: "/api/health", kind: "api", lean: true },
  /** Liveness and readiness for load balancers and Kubernetes (lib/health, docs/observability.md). */
  healthLive: { path: "/api/health/live", kind: "api", lean: true },
  healthReady: { path: "/api/health/ready", kind: "api", lean: true },
  /** Prometheus metrics, from configured networks or with the bearer token (lib/metrics, docs/observability.md). */
  metrics: { path: "/metrics", kind: "api", lean: true },
  /** Back from the sign-in screens (lib/oauth/authorize/handle-resume.ts). */
  resume: { path: "/authorize/resume/[id]", kind: "api" },
  /** Where a `prompt=mobile` request waits for the handset (lib/oauth/authorize/handle-mobile-wait.ts). */
  mobileWait: { path: "/authorize/wait/[id]", kind: "api" },
  /** The on-page language switch of every screen: sets the `lang` cookie, 303 back (lib/i18n/switch-language.ts). */
  language: { path: "/language", kind: "api" },
  /** next-auth's handler for the playground, the relying party inside the product. */
  playgroundAuth: { path: "/api/auth/[...nextauth]", kind: "api" },
  /** The operator's logo and theme stylesheet (app/brand/[asset]/route.ts, lib/branding). */
  brandAsset: { path: "/brand/[asset]", kind: "api" },
  /** The network APIs (CAMARA; lib/network-apis, docs/network-apis.md), each with its OpenAPI document beside it. */
  numberVerificationVerify: { path: "/number-verification/v2/verify", kind: "api", lean: true },
  numberVerificationDevicePhoneNumber: { path: "/number-verification/v2/device-phone-number", kind: "api", lean: true },
  numberVerificationOpenApi: { path: "/number-verification/v2/openapi.yaml", kind: "api" },
  simSwapRetrieveDate: { path: "/sim-swap/v2/retrieve-date", kind: "api", lean: true },
  simSwapOpenApi: { path: "/sim-swap/v2/openapi.yaml", kind: "api" },
  kycMatch: { path: "/kyc-match/v0.3/match", kind: "api", lean: true },
  kycMatchOpenApi: { path: "/kyc-match/v0.3/openapi.yaml", kind: "api" },
  /** RFC 7592's client configuration endpoint, each dynamic client's `registration_client_uri`. */
  registrationClient: { path: "/register/[clientId]", kind: "api" },
} as const satisfies Record<string, Endpoint>;

/**
 * The screens (`kind: "page"` areas, their form posts and event streams): every app/ route or page
 * under one of these is a screen, served by Next.js behind proxy.ts. Anything else in app/ must be in
 * ENDPOINTS.
 */
export const SCREEN_AREAS = ["/", "/interaction", "/handset", "/playground", "/unavailable", "/account", "/console"] as const;

type Table = typeof ENDPOINTS;
type Name = keyof Table;
type FixedName = { [K in Name]: Table[K]["path"] extends `${string}[${string}` ? never : K }[Name];
type MetadataName = { [K in Name]: Table[K] extends { metadata: string } ? K : never }[Name];
/** The metadata keys of the endpoints, e.g. `token_endpoint`. */
export type MetadataKey = { [K in MetadataName]: Table[K] extends { metadata: infer M extends string } ? M : never }[
  MetadataName];
/** The paths the lean server answers. */
export type LeanPath = { [K in Name]: Table[K] extends { lean: true } ? Table[K]["path"] : never }[Name];

const entries = Object.entries(ENDPOINTS) as Array<[Name, Endpoint]>;

/** Paths of the endpoints without a dynamic segment, relative to the issuer (also lib/oauth/discovery.ts's). */
export const PATHS = Object.fromEntries(
  entries.filter(([, e]) => !e.path.includes("[")).map(([n, e]) => [n, e.path]),
) as { readonly [K in FixedName]: Table[K]["path"] };

/** The metadata's endpoint URLs under `base` (the issuer without its trailing slash), in the table's order. */
export function endpointUrls(base: string): Record<MetadataKey, string> {
  return Object.fromEntries(entries.flatMap(([, e]) => (e.metadata ? [[e.metadata, `${base}${e.path}`]] : []))) as
    Record<MetadataKey, string>;
}

/** The paths the lean server answers, in the table's order. */
export const LEAN_PATHS = entries.filter(([, e]) => e.lean).map(([, e]) => e.path) as LeanPath[];
