/**
 * One dot per point, plain SVG, each named beside its dot; positions are layout, the values shown are
 * the server's. The accessible label lists every point with its values; the table beside it has them too.
 */
export function ScatterPlot({ title, points, formatX, formatY, xName = 'x', yName = 'y', emptyText }: {
  title: string;
  points: { label: string; x: number; y: number }[];
  formatX: (v: number) => string;
  formatY: (v: number) => string;
  /** What x and y measure, as the accessible label says them ("AI-assisted PR share 33%"). */
  xName?: string;
  yName?: string;
  emptyText: string;
}) {
  if (points.length === 0) return <p className="empty">{emptyText}</p>;
  const W = 560, H = 220, P = 40;
  const maxX = Math.max(...points.map((p) => p.x), 1e-9);
  const maxY = Math.max(...points.map((p) => p.y), 1e-9);
  const placed = placeLabels(points.map((p) => ({ ...p, cx: P + (p.x / maxX) * (W - P - 10), cy: H - P - (p.y / maxY) * (H - P - 10) })), W);
  const described = points.map((p) => `${p.label}: ${xName} ${formatX(p.x)}, ${yName} ${formatY(p.y)}`).join('; ');
  return (
    <figure className="scatter">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title}. ${described}`}>
        <line x1={P} y1={H - P} x2={W - 10} y2={H - P} className="axis" />
        <line x1={P} y1={10} x2={P} y2={H - P} className="axis" />
        <text x={P} y={H - 12} className="axis-label">0</text>
        <text x={W - 10} y={H - 12} textAnchor="end" className="axis-label">{formatX(maxX)}</text>
        <text x={4} y={16} className="axis-label">{formatY(maxY)}</text>
        {placed.map((p) => (
          <g key={p.label}>
            <circle cx={p.cx} cy={p.cy} r={5} className="dot">
              <title>{`${p.label}: ${formatX(p.x)}, ${formatY(p.y)}`}</title>
            </circle>
            <text x={p.tx} y={p.ty} textAnchor={p.anchor} className="point-label" data-point="">{p.label}</text>
          </g>
        ))}
      </svg>
    </figure>
  );
}

const LABEL_H = 14;
const CHAR_W = 7; // about a character's width at the label's 12px, in viewBox units

/**
 * Each team's name right of its dot (left of it near the right edge); a name that would cover one
 * placed before it moves down a line, so that dots close together keep readable names.
 */
function placeLabels<T extends { label: string; cx: number; cy: number }>(points: T[], width: number) {
  const boxes: { x0: number; x1: number; y0: number; y1: number }[] = [];
  return [...points].sort((a, b) => a.cy - b.cy || a.cx - b.cx).map((p) => {
    const w = p.label.length * CHAR_W;
    const right = p.cx + 8 + w <= width;
    const x0 = right ? p.cx + 8 : p.cx - 8 - w;
    let ty = Math.max(p.cy + 4, LABEL_H);
    while (boxes.some((b) => x0 < b.x1 && x0 + w > b.x0 && ty - LABEL_H + 2 < b.y1 && ty + 2 > b.y0)) ty += LABEL_H;
    boxes.push({ x0, x1: x0 + w, y0: ty - LABEL_H + 2, y1: ty + 2 });
    return { ...p, tx: right ? p.cx + 8 : p.cx - 8, ty, anchor: right ? ('start' as const) : ('end' as const) };
  });
}
