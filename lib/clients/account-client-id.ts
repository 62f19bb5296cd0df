/**
 * The account page's own client (app/account, docs/account.md): a built-in public client of our own
 * authorization endpoint, so the account page signs subscribers in through the very screens, limits
 * and lockouts every app gets. Its only redirect URI is ours, so no one else can use it.
 */
export const ACCOUNT_CLIENT_ID = "account";

/** The name the sign-in screens show ("to continue to Your account"). */
export const ACCOUNT_CLIENT_NAME = "Your account";

/** Its redirect URI, under the issuer (lib/account/finish-account-sign-in.ts answers it). */
export const ACCOUNT_CALLBACK_PATH = "/account/callback";

/**
 * The clients whose every authorization must be a fresh sign-in with the code sent by text message
 * (RegisteredClient.freshCodeSignIn): the account page, which changes what protects the subscriber (handsets,
 * the CIBA user code, consents), must never be opened by a session another app left in the browser, by the
 * network's silent sign-in, or by a handset approval. A property of the client record, honoured by the
 * authorization endpoint's prompt, session and network steps and by the sign-in screens; the account callback
 * checks the result again (lib/account/check-fresh-code-sign-in.ts).
 */
export function signsInWithFreshCode(clientId: string): boolean {
  return clientId === ACCOUNT_CLIENT_ID;
}
