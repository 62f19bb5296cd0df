import { db } from "../db";
import { markSecretVerified } from "../security/verified-client-secret";
import { hashSecret, randomToken } from "../crypto";
import { AdminError } from "../admin/admin-error";
import { invalidateClient } from "./get-client";
import { sealClientSecret } from "./seal-client-secret";

/** Replaces a confidential client's secret; the new secret is returned once, only its hash stored. */
export async function rotateClientSecret({ clientId }: { clientId: string }): Promise<{ clientSecret: string }> {
  const row = await db.client.findUnique({ where: { id: clientId }, select: { isPublic: true, tokenEndpointAuthMethod: true } });
  if (!row) throw new AdminError(`unknown client ${clientId}`);
  if (row.isPublic) throw new AdminError(`client ${clientId} is public and has no secret`);
  if (row.tokenEndpointAuthMethod === "private_key_jwt") {
    throw new AdminError(`client ${clientId} authenticates with private_key_jwt only and has no secret`);
  }
  const clientSecret = randomToken(32);
  const secretHash = await hashSecret(clientSecret);
  await db.client.update({ where: { id: clientId }, data: { secretHash, secretSealed: sealClientSecret(clientSecret) } });
  invalidateClient({ clientId });
  await markSecretVerified({ clientId, secretHash, secret: clientSecret }); // see create-client.ts
  return { clientSecret };
}
