import { db } from "../db";
import { isNetworkApiScope, KNOWN_PURPOSES, NETWORK_API_SCOPES } from "../network-apis/camara-scopes";

/**
 * The operator's legal-basis declarations (ApiPurpose, docs/network-apis.md "Purposes and legal bases"): for each
 * (API scope, purpose) pair the basis on which the operator processes the data. `consent`: the subscriber must
 * have consented (ApiConsent); `contract` / `legitimate_interest`: no consent is asked. A pair that is not declared
 * cannot be asked for at all (`invalid_scope`).
 *
 * Not cached: the declarations are changed by the admin CLI (another process, which could not invalidate a cache
 * here), and they are read only by requests that carry an API scope (one indexed query, by primary key); a request
 * without API scope never reads them.
 */
export const LEGAL_BASES = ["consent", "contract", "legitimate_interest"] as const;
export type LegalBasis = (typeof LEGAL_BASES)[number];

export interface ApiPurposeDeclaration {
  scope: string;
  purpose: string;
  legalBasis: LegalBasis;
  updatedAt: Date;
}

export class PurposeDeclarationError extends Error {}

const toBasis = (value: string): LegalBasis =>
  (LEGAL_BASES as readonly string[]).includes(value) ? (value as LegalBasis) : "consent";

/** Declares (or re-declares) the legal basis of one (API scope, purpose) pair. */
export async function setApiPurpose({ scope, purpose, legalBasis }: {
  scope: string; purpose: string; legalBasis: string;
}): Promise<ApiPurposeDeclaration> {
  if (!isNetworkApiScope(scope)) {
    throw new PurposeDeclarationError(`unknown API scope ${scope} (one of: ${NETWORK_API_SCOPES.join(" ")})`);
  }
  if (!(KNOWN_PURPOSES as readonly string[]).includes(purpose)) {
    throw new PurposeDeclarationError(`unknown purpose ${purpose} (one of: ${KNOWN_PURPOSES.join(" ")})`);
  }
  if (!(LEGAL_BASES as readonly string[]).includes(legalBasis)) {
    throw new PurposeDeclarationError(`legal basis must be one of ${LEGAL_BASES.join(", ")}`);
  }
  const row = await db.apiPurpose.upsert({ where: { scope_purpose: { scope, purpose } },
    create: { scope, purpose, legalBasis }, update: { legalBasis } });
  return { scope: row.scope, purpose: row.purpose, legalBasis: toBasis(row.legalBasis), updatedAt: row.updatedAt };
}

/** Every declaration, by scope then purpose. */
export async function listApiPurposes(): Promise<ApiPurposeDeclaration[]> {
  const rows = await db.apiPurpose.findMany({ orderBy: [{ scope: "asc" }, { purpose: "asc" }], take: 1000 });
  return rows.map((r) => ({ scope: r.scope, purpose: r.purpose, legalBasis: toBasis(r.legalBasis),
    updatedAt: r.updatedAt }));
}

/** Removes one declaration; false when there was none. Tokens already issued keep their scope until they expire. */
export async function removeApiPurpose({ scope, purpose }: { scope: string; purpose: string }): Promise<boolean> {
  const { count } = await db.apiPurpose.deleteMany({ where: { scope, purpose } });
  return count === 1;
}

/** The declared basis of each of `scopes` for `purpose` (a scope that is not declared is absent from the map). */
export async function declaredBases({ scopes, purpose }: { scopes: readonly string[]; purpose: string }):
  Promise<Map<string, LegalBasis>> {
  if (!scopes.length) return new Map();
  const rows = await db.apiPurpose.findMany({ where: { purpose, scope: { in: [...scopes] } },
    select: { scope: true, legalBasis: true } });
  return new Map(rows.map((r) => [r.scope, toBasis(r.legalBasis)]));
}
