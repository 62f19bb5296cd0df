import { consolePost } from "@/lib/console/console-post";
import { subscriberPage } from "@/lib/console/subscribers/subscriber-action";
import { config } from "@/lib/config";
import { normaliseMsisdn } from "@/lib/interaction/normalise-msisdn";
import { getSubscriberByMsisdn } from "@/lib/subscribers/get-subscriber-by-msisdn";

// POST /console/subscribers/find - care: the subscriber with this number (typed as people do, the operator's national
// form included), answered by a redirect to its page. A POST, so the number is in no URL, history or access log.
// Every search is audited (console_subscribers_find, never the number): success with the subscriber's pseudonym, or
// failure when no subscriber has it (which also tells the member something) or it is no number.
export const POST = consolePost("care", async ({ form }) => {
  const msisdn = normaliseMsisdn(form.get("number") ?? "", { country: config().DEFAULT_COUNTRY });
  if (!msisdn) {
    return { back: "/console/subscribers", e: "bad",
      audit: { type: "console_subscribers_find", outcome: "failure", detail: { reason: "malformed" } } };
  }
  const found = await getSubscriberByMsisdn({ msisdn });
  if (!found) {
    return { back: "/console/subscribers", e: "none",
      audit: { type: "console_subscribers_find", outcome: "failure", detail: { reason: "unknown" } } };
  }
  return { back: subscriberPage(found.id),
    audit: { type: "console_subscribers_find", outcome: "success", subscriberId: found.id } };
});
