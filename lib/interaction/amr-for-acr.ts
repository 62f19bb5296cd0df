/**
 * Authentication methods (RFC 8176 §2) proven at each assurance level: level 2 is a one-time code
 * by SMS (possession of the handset), level 3 adds the subscriber's PIN (knowledge).
 */
export function amrForAcr(acr: "2" | "3"): string[] {
  return acr === "3" ? ["otp", "sms", "pin"] : ["otp", "sms"];
}
