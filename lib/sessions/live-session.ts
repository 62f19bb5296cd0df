/**
 * An operator session usable for an authorization: what the authorization endpoint reads (the
 * browser's live sessions on the hot-path store, lib/store; a handset approval's own session) and
 * what a code records (auth_time, acr, amr).
 */
export interface LiveSession {
  id: string;
  subscriberId: string;
  authTime: Date;
  acr: string;
  amr: string;
}
