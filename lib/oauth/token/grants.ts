import { authorizationCodeGrant } from "./authorization-code-grant";
import { cibaGrant } from "./ciba-grant";
import { clientCredentialsGrant } from "./client-credentials-grant";
import { jwtBearerGrant } from "./jwt-bearer-grant";
import { refreshTokenGrant } from "./refresh-token-grant";

/**
 * The grants the token endpoint accepts, by `grant_type` (RFC 6749 §4.1.3, §6). The one list: the token
 * endpoint dispatches on it and the metadata's `grant_types_supported` is its keys, in this order. A new
 * grant is one line here and one file beside it.
 */
export const GRANTS = { authorization_code: authorizationCodeGrant, refresh_token: refreshTokenGrant,
  client_credentials: clientCredentialsGrant, "urn:ietf:params:oauth:grant-type:jwt-bearer": jwtBearerGrant,
  "urn:openid:params:grant-type:ciba": cibaGrant } as const;

export type GrantType = keyof typeof GRANTS;

export const GRANT_TYPES = Object.keys(GRANTS) as GrantType[];
