import { getHotStore } from "../store/get-hot-store";

/** An authorization code as stored: SHA-256 of the code with every binding the token endpoint checks. */
export type AuthorizationCodeRecord = {
  codeHash: string;
  clientId: string;
  subscriberId: string;
  sessionId: string;
  redirectUri: string;
  scope: string;
  nonce: string | null;
  acr: string;
  amr: string;
  authTime: Date;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  loginHint: string | null;
  claimsLocales: string | null;
  context: string | null;
  bindingMessage: string | null;
  expiresAt: Date;
};

/** Stores a code issued without a stored request (the fast path): one INSERT on the hot-path store. */
export async function storeAuthorizationCode(code: AuthorizationCodeRecord): Promise<void> {
  await getHotStore().insertAuthorizationCode(code);
}
