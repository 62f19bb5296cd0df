import { randomUUID } from "node:crypto";
import { db } from "@/lib/db";
import { hashSecret, randomToken } from "@/lib/crypto";
import { SUPPORTED_SCOPES } from "@/lib/oauth/scopes";

/** Registers a confidential client straight in the database; returns its id and plain secret. */
export async function createTestClient(overrides: {
  name?: string; redirectUris?: string[]; scopes?: string[]; expiresInFormat?: "timestamp" | "seconds";
  isPublic?: boolean; postLogoutRedirectUris?: string[];
} = {}) {
  const id = `test-${randomToken(9)}`;
  const secret = overrides.isPublic ? undefined : randomToken(32);
  const redirectUris = overrides.redirectUris ?? ["https://rp.example.test/callback"];
  const name = overrides.name ?? `TestApp${randomToken(4).replace(/[^A-Za-z0-9]/g, "")}`;
  await db.client.create({
    data: {
      id, name,
      secretHash: secret ? await hashSecret(secret) : null,
      redirectUris: JSON.stringify(redirectUris),
      postLogoutRedirectUris: JSON.stringify(overrides.postLogoutRedirectUris ?? ["https://rp.example.test/bye"]),
      allowedScopes: (overrides.scopes ?? [...SUPPORTED_SCOPES]).join(" "),
      sectorIdentifier: new URL(redirectUris[0]!).host,
      expiresInFormat: overrides.expiresInFormat ?? "timestamp",
      isPublic: overrides.isPublic ?? false,
    },
  });
  return { id, secret, name, redirectUri: redirectUris[0]! };
}

let msisdnCounter = 0;

// Fixture PINs repeat (most are the default): one scrypt hash per PIN and test process, not one per subscriber.
const pinHashes = new Map<string, Promise<string>>();
function fixturePinHash(pin: string): Promise<string> {
  let hashed = pinHashes.get(pin);
  if (!hashed) pinHashes.set(pin, (hashed = hashSecret(pin)));
  return hashed;
}

/** Creates a subscriber with a unique MSISDN (447700900xxx range) and, by default, a full identity. */
export async function createTestSubscriber(overrides: { pin?: string; status?: string;
  attributes?: Partial<Parameters<typeof db.subscriber.create>[0]["data"]> } = {}) {
  const msisdn = `4477${String(Date.now() % 1_000_000).padStart(6, "0")}${String(++msisdnCounter % 100).padStart(2, "0")}`;
  const pin = overrides.pin ?? "2468";
  const row = await db.subscriber.create({
    data: {
      id: randomUUID(), msisdn, status: overrides.status ?? "active", pinHash: await fixturePinHash(pin),
      givenName: "Alice", familyName: "Example", email: "alice@example.test", emailVerified: true,
      birthDate: "1990-04-01", nationalIdentifier: "QQ123456C", streetAddress: "1 High Street", city: "London",
      postalCode: "SW1A 1AA", country: "GB",
      ...overrides.attributes,
    },
  });
  return { ...row, pin };
}
