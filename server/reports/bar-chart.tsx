import { scaleLinear } from 'd3-scale';
import { symbol, symbolCircle, symbolCross, symbolTriangle } from 'd3-shape';
import { palette } from '../../client/theme/theme';

/**
 * A horizontal bar chart drawn on the server as inline SVG: nothing for the browser to download
 * or run. Each bar is labelled with its name above it and its value in words at its end, so the
 * picture reads without colour; a bar's range (what a sample of its size allows) is a line below
 * it. The reports put the same words in a table beside each chart.
 */

/** A mark's colour, each at least 3:1 against the white page and the bar's track. */
const TONES = {
  primary: palette.primary,
  accent: palette.accent,
  pass: palette.success,
  warn: palette.amber,
  fail: palette.destructive,
} as const;

/** A verdict drawn as a shape as well as a colour: circle, triangle, cross. */
const MARKERS = { pass: symbolCircle, warn: symbolTriangle, fail: symbolCross } as const;

export interface BarRow {
  label: string;
  /** The bar's length, 0 to 1 of the chart's width. */
  share: number;
  /** The range a sample of this size allows, as shares (0 to 1): a line under the bar. */
  range?: [number, number] | null;
  /** The figure in words, written at the end of the label's line. */
  value: string;
  tone: keyof typeof TONES;
  /** Striped, not solid: the one bar that stands apart from the others (the business itself). */
  striped?: boolean;
  /** A verdict's shape before the label. */
  marker?: keyof typeof MARKERS;
}

export interface BarGroup {
  /** A heading over the group's rows (an assistant's name); null: the chart has one group. */
  heading: string | null;
  rows: BarRow[];
}

/** Narrow enough that its words stay readable on a phone, where it is scaled down to the screen. */
const WIDTH = 400;
const FONT = 14;
const HEADING_HEIGHT = 32;
const LINE_HEIGHT = 22;
const BAR_HEIGHT = 12;
const RANGE_HEIGHT = 14;
const ROW_GAP = 12;
const MARKER_SPACE = 20;
/** A generous width of one character of the page's sans-serif at FONT, in the chart's units. */
const CHARACTER_WIDTH = FONT * 0.6;

/** Whether a row's name and value fit on one line (nothing measures text on the server, so this errs wide). */
const oneLine = (row: BarRow) => (row.marker ? MARKER_SPACE : 0) + (row.label.length + row.value.length) * CHARACTER_WIDTH + FONT <= WIDTH;

const rowHeight = (row: BarRow) => LINE_HEIGHT * (oneLine(row) ? 1 : 2) + BAR_HEIGHT + (row.range ? RANGE_HEIGHT : 0) + ROW_GAP;

const x = scaleLinear().domain([0, 1]).range([0, WIDTH]).clamp(true);

function Row({ row, top, hatch }: { row: BarRow; top: number; hatch: string }) {
  const single = oneLine(row);
  const barTop = top + LINE_HEIGHT * (single ? 1 : 2);
  const fill = TONES[row.tone];
  const marker = row.marker ? symbol(MARKERS[row.marker], 100)() : null;
  const rangeY = barTop + BAR_HEIGHT + RANGE_HEIGHT / 2 + 1;
  const indent = row.marker ? MARKER_SPACE : 0;
  return (
    <g>
      {marker && <path d={marker} fill={fill} transform={`translate(7 ${top + 10})${row.marker === 'fail' ? ' rotate(45)' : ''}`} />}
      <text x={indent} y={top + 15} fontSize={FONT} fill={palette.ink}>
        {row.label}
      </text>
      <text x={single ? WIDTH : indent} y={top + 15 + (single ? 0 : LINE_HEIGHT)} fontSize={FONT} fill={palette.ink} textAnchor={single ? 'end' : 'start'} fontWeight={700}>
        {row.value}
      </text>
      <rect x={0} y={barTop} width={WIDTH} height={BAR_HEIGHT} fill={palette.surfaceAlt} stroke={palette.border} />
      {row.share > 0 && (
        <rect
          x={0}
          y={barTop}
          width={Math.max(2, x(row.share))}
          height={BAR_HEIGHT}
          fill={row.striped ? `url(#${hatch})` : fill}
          stroke={fill}
          strokeWidth={row.striped ? 1.5 : 0}
        />
      )}
      {row.range && (
        <g stroke={palette.ink} strokeWidth={1.5}>
          <line x1={x(row.range[0])} x2={x(row.range[1])} y1={rangeY} y2={rangeY} />
          <line x1={x(row.range[0])} x2={x(row.range[0])} y1={rangeY - 4} y2={rangeY + 4} />
          <line x1={x(row.range[1])} x2={x(row.range[1])} y1={rangeY - 4} y2={rangeY + 4} />
        </g>
      )}
    </g>
  );
}

/** The rows of `groups` placed one under another from the top, and the height they take. */
function place(groups: BarGroup[]) {
  let height = 0;
  const placed = groups.map((group) => {
    const headingTop = group.heading === null ? null : height;
    if (group.heading !== null) height += HEADING_HEIGHT;
    const rows = group.rows.map((row) => {
      const top = height;
      height += rowHeight(row);
      return { row, top };
    });
    return { group, headingTop, rows };
  });
  return { placed, height };
}

/** The bars of `groups`, drawn from the top of an SVG; `hatch`: the id of its striped pattern. */
function Groups({ groups, hatch }: { groups: BarGroup[]; hatch: string }) {
  return (
    <>
      <defs>
        <pattern id={hatch} width={6} height={6} patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width={6} height={6} fill={palette.surface} />
          <line x1={0} y1={0} x2={0} y2={6} stroke={TONES.primary} strokeWidth={3} />
        </pattern>
      </defs>
      {place(groups).placed.map(({ group, headingTop, rows }, index) => (
        <g key={index}>
          {headingTop !== null && (
            <text x={0} y={headingTop + 20} fontSize={FONT + 1} fontWeight={700} fill={palette.ink}>
              {group.heading}
            </text>
          )}
          {rows.map(({ row, top }) => (
            <Row key={top} row={row} top={top} hatch={hatch} />
          ))}
        </g>
      ))}
    </>
  );
}

/**
 * The chart, as an image with a name and a description for assistive technology (`id` makes its
 * element ids unique on the page); the words on it are the table's.
 *
 * One SVG cannot break across printed pages, and a chart of several groups (a group per
 * assistant) is taller than an A4 page. So such a chart is drawn a second time for paper, a small
 * SVG per group, which print shows instead (two to a row, a page breaking only between them) and
 * the screen never does: hidden from assistive technology, which has the chart's description.
 */
export function BarChart({ id, title, description, groups }: { id: string; title: string; description: string; groups: BarGroup[] }) {
  const { height } = place(groups);
  const several = groups.length > 1;
  return (
    <>
      <svg
        xmlns="http://www.w3.org/2000/svg"
        viewBox={`0 0 ${WIDTH} ${height}`}
        width={WIDTH}
        height={height}
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
        data-print={several ? 'hide' : undefined}
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        <Groups groups={groups} hatch={`${id}-stripes`} />
      </svg>
      {several && (
        <div aria-hidden="true" data-print="only" data-chart-groups="">
          {groups.map((group, index) => {
            const groupHeight = place([group]).height;
            return (
              <svg key={index} xmlns="http://www.w3.org/2000/svg" viewBox={`0 0 ${WIDTH} ${groupHeight}`} width={WIDTH} height={groupHeight}>
                <Groups groups={[group]} hatch={`${id}-stripes-${index}`} />
              </svg>
            );
          })}
        </div>
      )}
    </>
  );
}
