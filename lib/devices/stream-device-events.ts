import { findDevice } from "./find-device";
import { listDeviceRequests } from "../out-of-band/list-device-requests";
import { onDeviceEvent } from "../out-of-band/device-events-bus";

/** Server-side poll period and the bounded lifetime of one stream (the browser then reconnects). */
const POLL_MS = 1_000;
const LIFETIME_MS = 55_000;

/**
 * GET /handset/events: Server-Sent Events (HTML Living Standard §9.2) for the enrolled handset.
 * Sends `event: requests` with the ids of the pending requests whenever that set changes (and once
 * at the start); the page reloads on a change. One timer per open stream, one indexed query per
 * second; the stream ends after 55 s (`retry: 1000` makes EventSource reconnect) or when the
 * client goes away. 401 without a valid device cookie.
 */
export async function streamDeviceEvents(req: Request): Promise<Response> {
  const device = await findDevice({ cookieHeader: req.headers.get("cookie") });
  if (!device) return new Response("not an enrolled device\n", { status: 401, headers: { "Cache-Control": "no-store" } });
  const encoder = new TextEncoder();
  let timer: NodeJS.Timeout | undefined;
  let last = "";
  let off = () => {};
  const started = Date.now();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const close = () => {
        clearTimeout(timer);
        off();
        try { controller.close(); } catch { /* already closed */ }
      };
      req.signal.addEventListener("abort", close, { once: true });
      controller.enqueue(encoder.encode("retry: 1000\n\n"));
      // A request created or answered on any instance (device-events-bus) is looked up at once; the
      // 1 s poll stays as the fallback. `polling`/`again`: never two polls of one stream at a time.
      let polling = false;
      let again = false;
      const poll = async () => {
        if (req.signal.aborted) return;
        polling = true;
        try {
          const ids = (await listDeviceRequests({ subscriberId: device.subscriberId })).map((r) => r.id).join(",");
          if (ids !== last) {
            last = ids;
            controller.enqueue(encoder.encode(`event: requests\ndata: ${JSON.stringify({ ids: ids ? ids.split(",") : [] })}\n\n`));
          } else {
            controller.enqueue(encoder.encode(": keep-alive\n\n"));
          }
        } catch {
          return close();
        }
        if (Date.now() - started >= LIFETIME_MS) return close();
        polling = false;
        timer = setTimeout(() => void poll(), again ? 0 : POLL_MS);
        again = false;
      };
      off = onDeviceEvent((e) => {
        if (e.subscriberId !== device.subscriberId) return;
        if (polling) again = true;
        else {
          clearTimeout(timer);
          void poll();
        }
      });
      void poll();
    },
    cancel() {
      clearTimeout(timer);
      off();
    },
  });
  return new Response(stream, {
    headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store",
      Connection: "keep-alive", "X-Accel-Buffering": "no" },
  });
}
