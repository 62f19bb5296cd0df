import type { Command } from "commander";
import { AdminError } from "../../lib/admin/admin-error";
import { importSimSwaps } from "../../lib/sim-swap/import-sim-swaps";
import { recordSimSwap } from "../../lib/sim-swap/record-sim-swap";
import { simSwapHistory } from "../../lib/sim-swap/sim-swap-history";
import { simSwapMsisdn } from "../../lib/sim-swap/sim-swap-event";
import type { AdminKit } from "./kit";

/**
 * The `sim` command group (issue 21, docs/sim-swap.md): record a SIM change and apply its effects, import the
 * operator's SIM change events, list a number's changes. `sim swap` and `sim import` are audited (admin_sim_swap,
 * admin_sim_import; the effects themselves are audited as `sim_swap` with the subscriber pseudonymised).
 */
export function register(program: Command, kit: AdminKit): void {
  kit.audited.add("sim swap");
  kit.audited.add("sim import");
  const sim = program.command("sim").description("SIM changes (SIM Swap API): record, import, history");

  sim.command("swap <msisdn>")
    .description("record a SIM change and end the subscriber's sessions, tokens, handsets and pending requests")
    .option("--at <time>", "when the SIM was changed (RFC 3339 with offset, e.g. 2026-11-25T10:00:00Z); default now")
    .option("--reference <id>", "the operator's own id of the change (recording it twice records it once)")
    .action(kit.act(async (msisdn: string, o: { at?: string; reference?: string }) => {
      const r = await recordSimSwap({ msisdn, at: o.at, source: "cli", reference: o.reference ?? null });
      const e = r.effects;
      const json = {
        msisdn: r.event.msisdn, swapped_at: r.event.swappedAt.toISOString(), event_id: r.event.id, recorded: r.created,
        subscriber: r.subscriber, sessions_ended: e.sessionsEnded, access_tokens_revoked: e.accessTokensRevoked,
        refresh_tokens_revoked: e.refreshTokensRevoked, devices_removed: e.devicesRemoved,
        backchannel_requests_denied: e.backchannelRequestsDenied, device_requests_expired: e.deviceRequestsExpired,
        enrolments_cancelled: e.enrolmentsCancelled, authorization_codes_expired: e.authorizationCodesExpired,
        authorization_requests_expired: e.authorizationRequestsExpired, logout_notified: e.logoutNotified,
      };
      const text = !r.created
        ? [`SIM change ${r.event.reference} was already recorded (${r.event.swappedAt.toISOString()}): `
            + "nothing changed."]
        : [`SIM change recorded for ${r.event.msisdn} at ${r.event.swappedAt.toISOString()}.`,
            ...(r.subscriber
              ? [`sessions ended:              ${e.sessionsEnded}`,
                  `access tokens revoked:       ${e.accessTokensRevoked}`,
                  `refresh tokens revoked:      ${e.refreshTokensRevoked}`,
                  `handsets removed:            ${e.devicesRemoved}`,
                  `CIBA requests denied:        ${e.backchannelRequestsDenied}`,
                  `handset requests expired:    ${e.deviceRequestsExpired}`,
                  `enrolments cancelled:        ${e.enrolmentsCancelled}`,
                  `codes and sign-ins expired:  ${e.authorizationCodesExpired + e.authorizationRequestsExpired}`,
                  `back-channel logout queued:  ${e.logoutNotified ? "yes" : "no"}`]
              : ["The number is no subscriber's: recorded only (the SIM Swap API answers from it)."])];
      return { json, text };
    }));

  sim.command("import <file>")
    .description("import SIM change events: CSV lines msisdn,swapped_at[,reference] or JSON lines (docs/sim-swap.md)")
    .action(kit.act(async (file: string) => {
      const r = await importSimSwaps({ path: file });
      if (r.rejected) {
        const listed = r.errors.slice(0, 20).map((e) => `line ${e.line}: ${e.message}`);
        const more = r.rejected > listed.length ? `; ${r.rejected - listed.length} more` : "";
        throw new AdminError(`nothing imported: ${r.rejected} bad line(s); ${listed.join("; ")}${more}`);
      }
      return {
        json: { lines: r.lines, imported: r.imported, duplicates: r.duplicates, applied: r.applied },
        text: [`${r.lines} event line(s): ${r.imported} imported, ${r.duplicates} already recorded; `
          + `effects applied to ${r.applied} subscriber event(s).`],
      };
    }));

  sim.command("history <msisdn>").description("list the SIM changes recorded for a number, newest first")
    .action(kit.act(async (input: string) => {
      const msisdn = simSwapMsisdn(input);
      if (!msisdn) throw new AdminError("malformed MSISDN: expected 7-15 digits with country code (e.g. 447700900123)");
      const events = (await simSwapHistory({ msisdn })).map((e) => ({
        id: e.id, swapped_at: e.swappedAt.toISOString(), source: e.source, reference: e.reference,
        recorded_at: e.createdAt.toISOString(),
      }));
      return {
        json: { msisdn, events },
        text: events.length
          ? events.map((e) => `${e.swapped_at}  ${e.source.padEnd(6)}  ${e.reference ?? "-"}`)
          : [`No SIM change recorded for ${msisdn}.`],
      };
    }));
}
