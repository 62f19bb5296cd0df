import type { ConsoleAction, ShowOnce } from "../console-post";
import { requestMessages } from "../../i18n/request-language";
import { localise } from "../messages/localise";
import { clientsMessages } from "../messages/clients";
import { AdminError } from "../../admin/admin-error";
import { createClient } from "../../clients/create-client";
import { updateClient } from "../../clients/update-client";
import { rotateClientSecret } from "../../clients/rotate-client-secret";
import { disableClient, enableClient } from "../../clients/set-client-disabled";
import { readClientOptions, readNewClient } from "./client-form";

// The console's client actions (app/console/(app)/clients/<verb>/route.ts, admin only): the admin CLI's functions,
// each audited `console_client_<verb>` with the client's id. The client is named by the form's `client_id`.

const CLIENT_ID = /^[A-Za-z0-9_.~-]{1,200}$/;

function clientIdOf(form: Map<string, string>): string {
  const id = form.get("client_id") ?? "";
  if (!CLIENT_ID.test(id)) throw new AdminError("unknown client");
  return id;
}

const back = (clientId: string) => `/console/clients/${encodeURIComponent(clientId)}`;

function secretPage(req: Request, title: "createdTitle" | "rotatedTitle", clientId: string, secret: string | null): ShowOnce {
  const lang = requestMessages(req).lang === "fr" ? "fr" : "en";
  const m = localise(clientsMessages, lang).show;
  return {
    lang, title: m[title], note: secret ? m.note : m.noSecret, backLabel: m.back,
    values: [[m.clientId, clientId], ...(secret ? [[m.clientSecret, secret] as [string, string]] : [])],
  };
}

/** Registers a client from the create form; its secret is shown once. */
export const createClientAction: ConsoleAction = async ({ form, req }) => {
  const { client, clientSecret } = await createClient(readNewClient(form));
  return {
    back: back(client.id), show: secretPage(req, "createdTitle", client.id, clientSecret),
    audit: { type: "console_client_create", outcome: "success", clientId: client.id,
      detail: { profile: client.profile, public: client.isPublic } },
  };
};

/** Saves the edit form (name, redirect and logout URIs, scopes, profile, options). */
export const updateClientAction: ConsoleAction = async ({ form }) => {
  const clientId = clientIdOf(form);
  const name = form.get("name")?.trim() || undefined;
  await updateClient({ clientId, changes: { ...readClientOptions(form), name } });
  return { back: back(clientId), done: "updated",
    audit: { type: "console_client_update", outcome: "success", clientId } };
};

/** Issues a new secret (the old one stops working at once), shown once. */
export const rotateSecretAction: ConsoleAction = async ({ form, req }) => {
  const clientId = clientIdOf(form);
  const { clientSecret } = await rotateClientSecret({ clientId });
  return { back: back(clientId), show: secretPage(req, "rotatedTitle", clientId, clientSecret),
    audit: { type: "console_client_rotate_secret", outcome: "success", clientId } };
};

/**
 * Disables the client (unknown everywhere, tokens revoked); on a disabled client, "Revoke its tokens again": revokes
 * the tokens other instances issued within their client cache's lifetime (lib/clients/set-client-disabled.ts).
 */
export const disableClientAction: ConsoleAction = async ({ form }) => {
  const clientId = clientIdOf(form);
  const { revokedTokens, alreadyDisabled } = await disableClient({ clientId });
  return { back: back(clientId), done: alreadyDisabled ? "revoked" : "disabled",
    audit: { type: "console_client_disable", outcome: "success", clientId,
      detail: { revoked_tokens: revokedTokens, again: alreadyDisabled } } };
};

/** Enables a disabled client. */
export const enableClientAction: ConsoleAction = async ({ form }) => {
  const clientId = clientIdOf(form);
  await enableClient({ clientId });
  return { back: back(clientId), done: "enabled", audit: { type: "console_client_enable", outcome: "success", clientId } };
};
