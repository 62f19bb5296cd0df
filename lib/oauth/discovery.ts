import { NETWORK_API_SCOPES } from "../network-apis/camara-scopes";
import { ACR_VALUES, DISPLAY_VALUES, LOGIN_HINT_METHODS, SUPPORTED_SCOPES, SUPPORTED_VERSIONS, UI_LOCALES } from "./scopes";
import { claimsSupported } from "./claims";
import { SIGNING_ALGS } from "../keys/key-store";
import { endpointUrls } from "../http/endpoints";
import { issuerBase } from "../http/issuer-base";
import { GRANT_TYPES } from "./token/grants";
import { CLIENT_KEY_ALGS } from "../clients/client-security";
import { DPOP_SIGNING_ALGS } from "./dpop/dpop-errors";
import { DELIVERY_MODES } from "../ciba/ciba";

/** Paths of every endpoint, relative to the issuer: the endpoint registry's (lib/http/endpoints.ts). */
export { PATHS } from "../http/endpoints";

/** Per-product versions (`*service_version_supported`), keyed by the full scope string as the field does. */
const PRODUCT_VERSIONS = [
  { openid: "mc_v1.1" },
  { "openid mc_authn": "mc_v1.2" },
  { "openid mc_authz": "mc_v1.2" },
  { "openid mc_identity_phonenumber": "mc_v1.2" },
  { "openid mc_identity_signup": "mc_v1.2" },
  { "openid mc_identity_nationalid": "mc_v1.2" },
  // The server-initiated flow mc_v2.0 announced, served as OpenID Connect CIBA (docs/ciba.md): the relying party
  // starts authentication or authorisation from its server, the subscriber answers on the handset. Another pair
  // for the same products, so a client that reads the list per product finds both versions.
  { "openid mc_authn": "mc_v2.0" },
  { "openid mc_authz": "mc_v2.0" },
];

/** The provider metadata document (OIDC Discovery 1.0 §3 plus the interface's extensions). */
export function providerMetadata(issuer: string) {
  return {
    version: "1.0",
    issuer,
    // authorization_endpoint … op_tos_uri, from the endpoint registry in its order.
    ...endpointUrls(issuerBase(issuer)),
    scopes_supported: [...SUPPORTED_SCOPES, ...NETWORK_API_SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: [...GRANT_TYPES],
    subject_types_supported: ["pairwise"],
    acr_values_supported: [...ACR_VALUES],
    // Per client (`id_token_signed_response_alg`, RS256 by default), one key each in the JWKS (docs/keys.md).
    id_token_signing_alg_values_supported: [...SIGNING_ALGS],
    // `none`: public clients (PKCE), at the token and revocation endpoints.
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"],
    token_endpoint_auth_signing_alg_values_supported: [...CLIENT_KEY_ALGS], // private_key_jwt (issue 19)
    revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"],
    revocation_endpoint_auth_signing_alg_values_supported: [...CLIENT_KEY_ALGS],
    introspection_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "private_key_jwt"],
    introspection_endpoint_auth_signing_alg_values_supported: [...CLIENT_KEY_ALGS],
    code_challenge_methods_supported: ["S256"],
    display_values_supported: [...DISPLAY_VALUES],
    prompt_values_supported: ["none", "login", "consent", "select_account", "no_seam", "mobile"],
    claims_supported: claimsSupported(),
    claim_types_supported: ["normal"],
    claims_parameter_supported: false,
    // Signed request objects (RFC 9101) and pushed authorization requests (RFC 9126): docs/signed-requests.md
    request_parameter_supported: true,
    request_uri_parameter_supported: true,
    require_request_uri_registration: false,
    request_object_signing_alg_values_supported: [...CLIENT_KEY_ALGS, "HS256"],
    require_pushed_authorization_requests: false,
    ui_locales_supported: [...UI_LOCALES],
    claims_locales_supported: [...UI_LOCALES],
    authorization_response_iss_parameter_supported: true,
    // Back-Channel / Front-Channel Logout 1.0 and Session Management 1.0 (docs/logout.md)
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    frontchannel_logout_supported: true,
    frontchannel_logout_session_supported: true,
    login_hint_methods_supported: [...LOGIN_HINT_METHODS],
    service_version_supported: PRODUCT_VERSIONS,
    mobile_connect_version_supported: PRODUCT_VERSIONS,
    mc_version: [...SUPPORTED_VERSIONS],
    mc_hash_algs_supported: ["SHA-256"],
    mc_amr_values_supported: ["otp", "sms", "pin", "mca"],
    mc_di_scopes_supported: ["mc_identity_signup", "mc_identity_phonenumber", "mc_identity_nationalid"],
    // OpenID Connect CIBA Core 1.0 §4 (docs/ciba.md); the endpoint comes from the registry above
    backchannel_token_delivery_modes_supported: [...DELIVERY_MODES],
    backchannel_authentication_request_signing_alg_values_supported: [...CLIENT_KEY_ALGS],
    backchannel_user_code_parameter_supported: true,
    // RFC 9449 §5.1 (docs/dpop.md)
    dpop_signing_alg_values_supported: [...DPOP_SIGNING_ALGS],
  };
}
