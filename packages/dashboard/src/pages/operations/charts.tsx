/** One value of a chart, with the label its axis and table show. */
export interface ChartPoint {
  readonly label: string;
  /** A shorter label for the axis; the label when absent. */
  readonly tick?: string;
  readonly value: number;
}

/** One line of a line chart: a name for the legend and table, the CSS class that draws it, a value per label. */
export interface ChartSeries {
  readonly name: string;
  readonly className: string;
  readonly values: readonly number[];
}

const WIDTH = 720;
const HEIGHT = 220;
const MARGIN = { top: 12, right: 12, bottom: 28, left: 52 } as const;
const PLOT_WIDTH = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;

/**
 * A bar chart as inline SVG, drawn on the server: no script, no style attribute (the CSP allows
 * neither; the classes are in the stylesheet). The SVG is one image named by its <title> and
 * <desc>; the figures themselves are in a table under it, for screen readers and for copying.
 */
export function BarChart(props: {
  id: string;
  title: string;
  description: string;
  points: readonly ChartPoint[];
  /** Label every n-th bar on the axis (the table has them all). */
  labelEvery: number;
  valueHeading: string;
}) {
  const { points } = props;
  const top = niceMax(Math.max(0, ...points.map((point) => point.value)));
  const slot = PLOT_WIDTH / Math.max(1, points.length);
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${props.id}-title ${props.id}-desc`}
        class="chart-svg"
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={`${props.id}-title`}>{props.title}</title>
        <desc id={`${props.id}-desc`}>{props.description}</desc>
        <YAxis top={top} />
        {points.map((point, index) => {
          const height = (point.value / top) * PLOT_HEIGHT;
          return (
            <rect
              class="bar"
              x={fixed(MARGIN.left + index * slot + slot * 0.1)}
              y={fixed(MARGIN.top + PLOT_HEIGHT - height)}
              width={fixed(slot * 0.8)}
              height={fixed(height)}
            />
          );
        })}
        {points.map((point, index) =>
          index % props.labelEvery === 0 ? (
            <text x={fixed(MARGIN.left + index * slot + slot / 2)} y={HEIGHT - 8} text-anchor="middle">
              {point.tick ?? point.label}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption>
        <details>
          <summary>{props.title}: the figures</summary>
          <table class="chart-data">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">{props.valueHeading}</th>
              </tr>
            </thead>
            <tbody>
              {points.map((point) => (
                <tr>
                  <th scope="row">{point.label}</th>
                  <td>{point.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  );
}

/** A line chart as inline SVG, like BarChart; series differ by dash pattern as well as colour. */
export function LineChart(props: {
  id: string;
  title: string;
  description: string;
  labels: readonly string[];
  /** Shorter labels for the axis, one per label. */
  ticks?: readonly string[];
  series: readonly ChartSeries[];
  labelEvery: number;
}) {
  const { labels, series } = props;
  const top = niceMax(Math.max(0, ...series.flatMap((line) => line.values)));
  const step = PLOT_WIDTH / Math.max(1, labels.length - 1);
  const x = (index: number) => fixed(MARGIN.left + (labels.length === 1 ? PLOT_WIDTH / 2 : index * step));
  const y = (value: number) => fixed(MARGIN.top + PLOT_HEIGHT - (value / top) * PLOT_HEIGHT);
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${props.id}-title ${props.id}-desc`}
        class="chart-svg"
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={`${props.id}-title`}>{props.title}</title>
        <desc id={`${props.id}-desc`}>{props.description}</desc>
        <YAxis top={top} />
        {series.map((line) => (
          <polyline class={`line ${line.className}`} points={line.values.map((value, index) => `${x(index)},${y(value)}`).join(' ')} />
        ))}
        {labels.map((label, index) =>
          index % props.labelEvery === 0 ? (
            <text x={x(index)} y={HEIGHT - 8} text-anchor="middle">
              {props.ticks?.[index] ?? label}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption>
        <ul class="legend">
          {series.map((line) => (
            <li>
              <svg viewBox="0 0 24 8" width="24" height="8" aria-hidden="true" class="swatch">
                <line x1="0" y1="4" x2="24" y2="4" class={`line ${line.className}`} />
              </svg>
              {line.name}
            </li>
          ))}
        </ul>
        <details>
          <summary>{props.title}: the figures</summary>
          <table class="chart-data">
            <thead>
              <tr>
                <th scope="col">When</th>
                {series.map((line) => (
                  <th scope="col">{line.name}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {labels.map((label, index) => (
                <tr>
                  <th scope="row">{label}</th>
                  {series.map((line) => (
                    <td>{line.values[index] ?? 0}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  );
}

/** The axis line, the grid lines and the value labels at 0, half and the top. */
function YAxis(props: { top: number }) {
  const ticks = [0, props.top / 2, props.top];
  return (
    <g>
      {ticks.map((tick) => {
        const at = fixed(MARGIN.top + PLOT_HEIGHT - (tick / props.top) * PLOT_HEIGHT);
        return (
          <g>
            <line class={tick === 0 ? 'axis' : 'grid-line'} x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={at} y2={at} />
            <text x={MARGIN.left - 6} y={fixed(Number(at) + 4)} text-anchor="end">
              {Number.isInteger(tick) ? tick : tick.toFixed(1)}
            </text>
          </g>
        );
      })}
    </g>
  );
}

/** The axis top: the largest value rounded up to 1, 2 or 5 times a power of ten (at least 1). */
export function niceMax(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const factor of [1, 2, 5, 10]) if (factor * power >= value) return factor * power;
  return 10 * power;
}

/** A coordinate with two decimals: enough for the eye, short in the page. */
function fixed(value: number): string {
  return String(Math.round(value * 100) / 100);
}
