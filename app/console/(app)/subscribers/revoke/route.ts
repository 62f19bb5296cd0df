import { consolePost } from "@/lib/console/console-post";
import { formSubscriber, subscriberPage } from "@/lib/console/subscribers/subscriber-action";
import { revokeDevice } from "@/lib/devices/revoke-device";

// POST /console/subscribers/revoke - care: revokes one of this subscriber's handsets (the CLI's
// `device revoke`, limited to the subscriber named by the form, so another subscriber's device id changes nothing).
export const POST = consolePost("care", async ({ form }) => {
  const s = await formSubscriber(form);
  if ("refused" in s) return s.refused;
  const device = form.get("device") ?? "";
  const removed = device.length > 0 && device.length <= 100
    && await revokeDevice({ deviceId: device, subscriberId: s.id });
  if (!removed) return { back: subscriberPage(s.id), e: "handset" };
  return { back: subscriberPage(s.id), done: "handset_removed",
    audit: { type: "console_subscribers_revoke", outcome: "success", subscriberId: s.id, detail: { device } } };
});
