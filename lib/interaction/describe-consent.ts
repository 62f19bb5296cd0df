import { premiumInfoAttributes, USERINFO_CLAIMS } from "../oauth/claims";
import type { Messages } from "../i18n/get-messages";

/** The standard OIDC scopes whose claims the consent screen lists beside the premium info ones. */
const STANDARD_SCOPES = ["profile", "email", "address", "phone"];

/**
 * What the consent screen says about a request: one plain-language line per scope, and the
 * attributes that will be shared - the union over the identity scopes (the interface's premium info
 * table) and the standard scopes (OIDC Core §5.4) - each named once, in the subscriber's language.
 */
export function describeConsent({ scopes, t }: { scopes: readonly string[]; t: Messages }) {
  const scopeLines = scopes.map((scope) => ({ scope, text: t.scopes[scope] ?? scope }));
  const names = [
    ...premiumInfoAttributes(scopes),
    ...scopes.filter((s) => STANDARD_SCOPES.includes(s)).flatMap((s) => USERINFO_CLAIMS[s] ?? []),
  ];
  const labels = [...new Set(names.map((n) => t.attributes[n] ?? n))];
  return { scopeLines, attributes: labels };
}
