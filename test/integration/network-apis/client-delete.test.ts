import { describe, expect, it } from "vitest";
import { deleteClient } from "@/lib/clients/delete-client";
import { callApi, createApiClient, declarePurpose, FRAUD, insertClientApiToken, openApiErrors } from "@/test/support/camara-support";
import { createTestSubscriber } from "@/test/support/fixtures";

/** Deleting a client ends its two-legged access to the network APIs (the API wrapper does not read the client). */
describe("client delete and the network APIs", () => {
  it("revokes the client's client_credentials tokens: the API then answers 401", async () => {
    await declarePurpose("sim-swap:retrieve-date", FRAUD, "legitimate_interest");
    const client = await createApiClient({ scopes: ["sim-swap:retrieve-date", FRAUD],
      grantTypes: ["client_credentials"], clientCredentialsScopes: ["sim-swap:retrieve-date", FRAUD] });
    const subscriber = await createTestSubscriber();
    const token = await insertClientApiToken({ clientId: client.id, scope: `sim-swap:retrieve-date ${FRAUD}` });
    const body = { phoneNumber: `+${subscriber.msisdn}` };

    const before = await callApi("/sim-swap/v2/retrieve-date", { token, body });
    expect(before.status).toBe(200);
    expect(openApiErrors("sim-swap", "/retrieve-date", "POST", before)).toEqual([]);

    expect((await deleteClient({ clientId: client.id })).revokedTokens).toBe(1);
    const after = await callApi("/sim-swap/v2/retrieve-date", { token, body });
    expect(after.status).toBe(401);
    expect((after.body as { code?: string }).code).toBe("UNAUTHENTICATED");
    expect(openApiErrors("sim-swap", "/retrieve-date", "POST", after)).toEqual([]);
  });
});
