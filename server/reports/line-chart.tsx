import { scaleLinear, scalePoint } from 'd3-scale';
import { line, symbol, symbolCircle, symbolCross, symbolDiamond, symbolSquare, symbolTriangle, symbolWye } from 'd3-shape';
import { palette } from '../../client/theme/theme';

/**
 * A line chart of shares over time, drawn on the server as inline SVG: one line per series across
 * the runs, each told apart by its shape and its dashes as well as its colour, so the picture
 * reads without colour and in black and white print. A key names each line; the exact figures
 * are in the chart's description and in the table the reports put beside it.
 */

/** Each line's look, in order: a colour at least 3:1 against the white page, a point shape, a dash pattern. */
const LOOKS = [
  { colour: palette.primary, shape: symbolCircle, dashes: undefined },
  { colour: palette.accent, shape: symbolSquare, dashes: '6 3' },
  { colour: palette.success, shape: symbolTriangle, dashes: '2 3' },
  { colour: palette.amber, shape: symbolDiamond, dashes: '8 3 2 3' },
  { colour: palette.rose, shape: symbolCross, dashes: '10 4' },
  { colour: palette.inkMuted, shape: symbolWye, dashes: '1 2' },
] as const;

export interface LineSeries {
  label: string;
  /** One share (0 to 1) per point of the x axis; null: nothing measured there (the line breaks). */
  values: (number | null)[];
}

const WIDTH = 400;
const FONT = 13;
const LEFT = 44;
const RIGHT = 16;
const TOP = 12;
const PLOT_HEIGHT = 180;
const AXIS_HEIGHT = 30;
const KEY_LINE = 22;
const TICKS = [0, 0.25, 0.5, 0.75, 1];

/**
 * The chart, as an image with a name and a description for assistive technology (`id` makes its
 * element ids unique on the page). `points`: the x axis's labels (the runs' dates), in order.
 */
export function LineChart({ id, title, description, points, series }: { id: string; title: string; description: string; points: string[]; series: LineSeries[] }) {
  const x = scalePoint<number>()
    .domain(points.map((_label, index) => index))
    .range([LEFT + 24, WIDTH - RIGHT - 24])
    .padding(points.length === 1 ? 0.5 : 0);
  const y = scaleLinear().domain([0, 1]).range([TOP + PLOT_HEIGHT, TOP]).clamp(true);
  const keyTop = TOP + PLOT_HEIGHT + AXIS_HEIGHT + 8;
  const height = keyTop + series.length * KEY_LINE + 4;
  const path = line<number | null>()
    .defined((value) => value !== null)
    .x((_value, index) => x(index) ?? 0)
    .y((value) => y(value ?? 0));
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox={`0 0 ${WIDTH} ${height}`} width={WIDTH} height={height} role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`}>
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      <g fontSize={FONT} fill={palette.ink}>
        {TICKS.map((tick) => (
          <g key={tick}>
            <line x1={LEFT} x2={WIDTH - RIGHT} y1={y(tick)} y2={y(tick)} stroke={palette.border} />
            <text x={LEFT - 6} y={y(tick) + 4} textAnchor="end">{`${Math.round(tick * 100)}%`}</text>
          </g>
        ))}
        {points.map((label, index) => (
          <text key={index} x={x(index)} y={TOP + PLOT_HEIGHT + 20} textAnchor="middle">
            {label}
          </text>
        ))}
      </g>
      {series.map((item, index) => {
        const look = LOOKS[index % LOOKS.length] ?? LOOKS[0];
        const mark = symbol(look.shape, 48)() ?? '';
        return (
          <g key={index}>
            <path d={path(item.values) ?? ''} fill="none" stroke={look.colour} strokeWidth={2.5} strokeDasharray={look.dashes} />
            {item.values.map((value, point) => (value === null ? null : <path key={point} d={mark} fill={look.colour} transform={`translate(${x(point) ?? 0} ${y(value)})`} />))}
            <g transform={`translate(0 ${keyTop + index * KEY_LINE})`}>
              <line x1={0} x2={36} y1={8} y2={8} stroke={look.colour} strokeWidth={2.5} strokeDasharray={look.dashes} />
              <path d={mark} fill={look.colour} transform="translate(18 8)" />
              <text x={44} y={13} fontSize={FONT} fill={palette.ink}>
                {item.label}
              </text>
            </g>
          </g>
        );
      })}
    </svg>
  );
}
