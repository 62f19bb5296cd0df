import { scaleLinear, scaleTime } from "d3-scale";
import { line } from "d3-shape";
import type { ChartData } from "@/lib/metrics/dashboard-series";
import { ui, ConsoleTable } from "./console-ui";

/** Line colours: each at least 3:1 against white (WCAG 1.4.11), told apart also by the legend's order and dashes. */
const COLOURS = ["#1e40af", "#991b1b", "#166534", "#92400e", "#6b21a8", "#334155", "#0f766e", "#9d174d"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "", "6 3", "2 3", "8 3 2 3"];
const W = 640;
const H = 220;
const M = { top: 28, right: 12, bottom: 28, left: 52 };

const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);

/**
 * One server-rendered SVG line chart (no script): the image has its title and description (role="img",
 * aria-labelledby), and every figure is also in a data table under a details element for screen readers and
 * anyone who wants the numbers.
 */
export function MetricsChart({ id, title, desc, unit, data, texts }: {
  id: string; title: string; desc: string; unit: string; data: ChartData;
  texts: { dataTable: string; time: string; noData: string; nothing: string };
}) {
  const values = data.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const max = Math.max(1, ...values);
  const t0 = data.times[0] ?? Date.now();
  const t1 = data.times.at(-1) ?? t0;
  const x = scaleTime().domain([new Date(t0 === t1 ? t0 - 60_000 : t0), new Date(t1)]).range([M.left, W - M.right]);
  const y = scaleLinear().domain([0, max]).nice(4).range([H - M.bottom, M.top]); // nice(4): the top tick is the top
  const path = line<[number, number | null]>().defined(([, v]) => v !== null).x(([t]) => x(new Date(t)))
    .y(([, v]) => y(v ?? 0));
  const yTicks = y.ticks(4);
  // One label per minute at most (ticks inside one minute would repeat the same hh:mm).
  const xTicks = x.ticks(5).filter((d, i, all) => i === 0 || hhmm(d.getTime()) !== hhmm(all[i - 1]!.getTime()));
  return (
    <section className={ui.section} aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`} className={ui.h2}>{title}</h2>
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-labelledby={`${id}-t ${id}-d`} className="max-w-3xl">
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>{desc}</desc>
        {yTicks.map((v) => (
          <g key={`y${v}`}>
            <line x1={M.left} x2={W - M.right} y1={y(v)} y2={y(v)} stroke="#cbd5e1" />
            <text x={M.left - 6} y={y(v)} textAnchor="end" dominantBaseline="middle" fontSize="11" fill="#334155">{v}</text>
          </g>
        ))}
        {xTicks.map((d) => (
          <text key={`x${d.getTime()}`} x={x(d)} y={H - 8} textAnchor="middle" fontSize="11" fill="#334155">
            {hhmm(d.getTime())}
          </text>
        ))}
        <text x={4} y={12} fontSize="11" fill="#334155">{unit}</text>
        {data.series.map((s, i) => (
          <path key={s.name} d={path(data.times.map((t, k) => [t, s.values[k] ?? null])) ?? ""} fill="none"
            stroke={COLOURS[i % COLOURS.length]} strokeWidth="2" strokeDasharray={DASHES[i % DASHES.length] || undefined} />
        ))}
        {/* A dot per figure: a single point (the first minute) has no line to draw. */}
        {data.series.map((s, i) => data.times.map((t, k) => s.values[k] === null || s.values[k] === undefined ? null : (
          <circle key={`${s.name}-${t}`} cx={x(new Date(t))} cy={y(s.values[k]!)} r="2.5" fill={COLOURS[i % COLOURS.length]} />
        )))}
      </svg>
      {data.series.length > 0 ? (
        <ul className="flex flex-wrap gap-4 text-sm">
          {data.series.map((s, i) => (
            <li key={s.name} className="flex items-center gap-1">
              <svg width="24" height="8" aria-hidden="true"><line x1="0" x2="24" y1="4" y2="4"
                stroke={COLOURS[i % COLOURS.length]} strokeWidth="2" strokeDasharray={DASHES[i % DASHES.length] || undefined} />
              </svg>
              {s.name}
            </li>
          ))}
        </ul>
      ) : <p className={ui.muted}>{texts.nothing}</p>}
      <details>
        <summary className="cursor-pointer">{texts.dataTable}: {title}</summary>
        <ConsoleTable caption={`${title} (${unit})`} columns={[texts.time, ...data.series.map((s) => s.name)]}>
          {data.times.map((t, k) => (
            <tr key={t}>
              <th scope="row" className={ui.td}>{hhmm(t)}</th>
              {data.series.map((s) => <td key={s.name} className={ui.td}>{s.values[k] ?? texts.noData}</td>)}
            </tr>
          ))}
        </ConsoleTable>
      </details>
    </section>
  );
}
