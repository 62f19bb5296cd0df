/**
 * OpenID Connect Client-Initiated Backchannel Authentication (CIBA Core 1.0) with the MODRNA CIBA profile:
 * the names every part of lib/ciba shares. docs/ciba.md tells the whole flow.
 */

/** The token endpoint's grant type for poll and ping mode (CIBA Core §10.1). */
export const CIBA_GRANT_TYPE = "urn:openid:params:grant-type:ciba";

/** `backchannel_token_delivery_mode` values (CIBA Core §5), in the metadata's order. */
export const DELIVERY_MODES = ["poll", "ping", "push"] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];

/** The id_token claim that ties a pushed id_token to its request (CIBA Core §10.3.1). */
export const AUTH_REQ_ID_CLAIM = "urn:openid:params:jwt:claim:auth_req_id";

/** A BackchannelRequest's status: pending until the subscriber answers or it expires; redeemed once tokens went out. */
export type BackchannelStatus = "pending" | "approved" | "denied" | "expired" | "redeemed";

/** Where the subscriber answers: the enrolled handset, or the text-message link when none is enrolled. */
export type BackchannelChannel = "handset" | "sms" | "network"; // network: approved at once by the network (nba)

/** How much `interval` grows each time a client polls too fast (CIBA Core §11, as RFC 8628 §3.5). */
export const SLOW_DOWN_STEP = 5;
