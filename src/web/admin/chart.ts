// The dashboard's sales chart: revenue per day as an inline SVG bar chart drawn on the server (presentation
// attributes and classes only, so it needs neither script nor inline style under the CSP).
import { escapeHtml, formatMoney, raw, type Html } from "../html.ts";

export interface SalesPoint {
  /** A Danish calendar date, YYYY-MM-DD. */
  date: string;
  revenueDkk: number;
  orderCount: number;
}

const WIDTH = 720;
const HEIGHT = 240;
const PAD = { top: 12, right: 8, bottom: 28, left: 64 };

/** A round step for the value axis: 1, 2 or 5 times a power of ten, giving about four gridlines. */
function niceStep(max: number): number {
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const factor = [1, 2, 5, 10].find((f) => f * power >= rough) ?? 10;
  return factor * power;
}

/** "12.500 kr." without øre, for axis labels. */
function axisAmount(minor: number, currency: string): string {
  return formatMoney(Math.round(minor / 100) * 100, currency, { whole: true });
}

function dayLabel(date: string): string {
  const [, month, day] = date.split("-");
  return `${Number(day)}/${Number(month)}`;
}

export function salesChartSvg(points: readonly SalesPoint[], title: string, currency: string): Html {
  const max = Math.max(0, ...points.map((p) => p.revenueDkk));
  const step = max > 0 ? niceStep(max) : 100_000;
  const top = Math.max(step, Math.ceil(max / step) * step);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, points.length);
  const barW = Math.max(2, slot * 0.7);
  const y = (value: number) => PAD.top + plotH - (Math.max(0, value) / top) * plotH;

  const grid: string[] = [];
  for (let value = 0; value <= top; value += step) {
    const at = y(value).toFixed(1);
    grid.push(`<line class="chart-grid" x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${at}" y2="${at}"/>`);
    grid.push(`<text class="chart-axis" x="${PAD.left - 6}" y="${at}" text-anchor="end" dominant-baseline="middle">${escapeHtml(axisAmount(value, currency))}</text>`);
  }
  const labelEvery = Math.max(1, Math.ceil(points.length / 8));
  const bars = points.map((point, i) => {
    const x = PAD.left + i * slot + (slot - barW) / 2;
    const height = Math.max(point.revenueDkk > 0 ? 1 : 0, PAD.top + plotH - y(point.revenueDkk));
    const tip = `${point.date}: ${formatMoney(point.revenueDkk, currency)}, ${point.orderCount} order${point.orderCount === 1 ? "" : "s"}`;
    const label = i % labelEvery === 0
      ? `<text class="chart-axis" x="${(x + barW / 2).toFixed(1)}" y="${HEIGHT - 8}" text-anchor="middle">${escapeHtml(dayLabel(point.date))}</text>`
      : "";
    return `<g><rect class="chart-bar" x="${x.toFixed(1)}" y="${(PAD.top + plotH - height).toFixed(1)}" width="${barW.toFixed(1)}" height="${height.toFixed(1)}"><title>${escapeHtml(tip)}</title></rect>${label}</g>`;
  });
  return raw(`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-title" xmlns="http://www.w3.org/2000/svg">
<title id="chart-title">${escapeHtml(title)}</title>
${grid.join("\n")}
${bars.join("\n")}
<line class="chart-baseline" x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${PAD.top + plotH}" y2="${PAD.top + plotH}"/>
</svg>`);
}
