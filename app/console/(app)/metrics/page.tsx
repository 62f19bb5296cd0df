import { consolePage } from "@/lib/console/console-page";
import { metricsMessages } from "@/lib/console/messages/metrics";
import { dashboardSeries } from "@/lib/metrics/dashboard-series";
import { metrics } from "@/lib/metrics/registry";
import { samples, snapshot } from "@/lib/metrics/sampler";
import { ui } from "@/components/console/console-ui";
import { MetricsChart } from "@/components/console/metrics-chart";

// GET /console/metrics - this instance's metrics for the last hour (viewer and up): the sampler's ring buffer
// (lib/metrics/sampler.ts) as server-rendered SVG charts with data tables; no script.
export default async function MetricsPage() {
  const { t } = await consolePage("viewer");
  const m = t(metricsMessages);
  const registry = metrics();
  if (!registry) {
    return <div className={ui.page}><h1 className={ui.h1}>{m.title}</h1><p>{m.off}</p></div>;
  }
  const d = dashboardSeries(samples(), await snapshot(registry));
  const texts = { dataTable: m.dataTable, time: m.time, noData: m.noData, nothing: m.nothing };
  const charts = [
    ["requests", d.requests, m.perMinute], ["p50", d.p50, m.milliseconds], ["p95", d.p95, m.milliseconds],
    ["signIns", d.signIns, m.perMinute], ["tokens", d.tokens, m.perMinute], ["codes", d.codes, m.perMinute],
    ["throttles", d.throttles, m.perMinute],
  ] as const;
  return (
    <div className={ui.page}>
      <h1 className={ui.h1}>{m.title}</h1>
      <p>{m.intro}</p>
      {d.requests.times.length === 0 ? <p className={ui.muted}>{m.empty}</p>
        : <p className={ui.muted}>{m.summary(d.requests.times.length,
          new Date(d.requests.times.at(-1)!).toISOString().slice(11, 16))}</p>}
      {charts.map(([key, data, unit]) => (
        <MetricsChart key={key} id={`chart-${key}`} title={m.charts[key].title} desc={m.charts[key].desc} unit={unit}
          data={data} texts={texts} />
      ))}
    </div>
  );
}
