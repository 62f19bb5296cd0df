/**
 * Whether `scopes` (with their one purpose) need the subscriber's consent for this client that is not on record
 * (docs/network-apis.md "Purposes and consent"): some API scope whose declared legal basis for the purpose is
 * `consent` and no ApiConsent row (not withdrawn) covers it. Used where a subscriber could be signed in without a
 * screen (network-based authentication, CIBA's silent approval): then the consent must be asked instead.
 * PLACEHOLDER of the foundation commit (answers false); the consent stream implements it.
 */
export async function needsApiConsent(_args: { subscriberId: string; clientId: string; scopes: readonly string[] }):
  Promise<boolean> {
  return false;
}
