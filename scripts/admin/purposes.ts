import { Option, type Command } from "commander";
import type { AdminKit } from "./kit";

/**
 * `purpose set | list | remove` (issue 21, docs/network-apis.md "Purposes and legal bases"): the operator's
 * declaration of the legal basis on which each network-API scope is processed for each purpose. A (scope, purpose)
 * pair that is not declared cannot be asked for. `withdraw-consent` withdraws a subscriber's consent (as the
 * account page does). `set`, `remove` and `withdraw-consent` are audited (admin_purpose_…). Changes apply to the next request (declarations are read per request, not cached).
 */
export function register(program: Command, kit: AdminKit): void {
  const { act, audited } = kit;
  audited.add("purpose set");
  audited.add("purpose remove");
  audited.add("purpose withdraw-consent");
  const group = program.command("purpose").description("network-API purposes and their legal bases (ApiPurpose)");

  group.command("set <scope> <purpose>")
    .description("declare the legal basis of an API scope for a purpose, e.g. sim-swap:check "
      + "dpv:FraudPreventionAndDetection --basis legitimate_interest")
    .addOption(new Option("--basis <basis>", "consent (the subscriber is asked), contract or legitimate_interest")
      .choices(["consent", "contract", "legitimate_interest"]).makeOptionMandatory())
    .action(act(async (scope: string, purpose: string, opts: { basis: string }) => {
      const { setApiPurpose, PurposeDeclarationError } = await import("../../lib/api-consent/purposes");
      const { AdminError } = await import("../../lib/admin/admin-error");
      try {
        const d = await setApiPurpose({ scope, purpose, legalBasis: opts.basis });
        return { json: { scope: d.scope, purpose: d.purpose, legal_basis: d.legalBasis },
          text: [`${d.scope} for ${d.purpose}: ${d.legalBasis}.`] };
      } catch (err) {
        if (err instanceof PurposeDeclarationError) throw new AdminError(err.message);
        throw err;
      }
    }));

  group.command("list").description("list the declarations")
    .action(act(async () => {
      const { listApiPurposes } = await import("../../lib/api-consent/purposes");
      const all = await listApiPurposes();
      return {
        json: { purposes: all.map((d) => ({ scope: d.scope, purpose: d.purpose, legal_basis: d.legalBasis,
          updated_at: d.updatedAt.toISOString() })) },
        text: all.length ? all.map((d) => `${d.scope}  ${d.purpose}  ${d.legalBasis}`) : ["No purpose declared."],
      };
    }));

  group.command("withdraw-consent <msisdn> <purpose>")
    .description("withdraw a subscriber's network-API consent to a client for a purpose (revokes that client's "
      + "tokens carrying the purpose)")
    .requiredOption("--client <client_id>", "the client the consent was given to")
    .action(act(async (msisdn: string, purpose: string, opts: { client: string }) => {
      const { withdrawApiConsent } = await import("../../lib/api-consent/consents");
      const { getSubscriberByMsisdnOrThrow } = await import("../../lib/subscribers/get-subscriber-by-msisdn-or-throw");
      const { AdminError } = await import("../../lib/admin/admin-error");
      const subscriber = await getSubscriberByMsisdnOrThrow({ msisdn });
      if (!(await withdrawApiConsent({ subscriberId: subscriber.id, clientId: opts.client, purpose, by: "operator" }))) {
        throw new AdminError(`no consent in force for client ${opts.client} and ${purpose}`);
      }
      return { json: { withdrawn: { client_id: opts.client, purpose } },
        text: [`Consent to ${opts.client} for ${purpose} withdrawn; its tokens carrying the purpose are revoked.`] };
    }));

  group.command("remove <scope> <purpose>").description("remove a declaration (the pair can no longer be asked for)")
    .action(act(async (scope: string, purpose: string) => {
      const { removeApiPurpose } = await import("../../lib/api-consent/purposes");
      const { AdminError } = await import("../../lib/admin/admin-error");
      if (!(await removeApiPurpose({ scope, purpose }))) throw new AdminError(`no declaration for ${scope} ${purpose}`);
      return { json: { removed: { scope, purpose } }, text: [`Declaration ${scope} ${purpose} removed.`] };
    }));
}
