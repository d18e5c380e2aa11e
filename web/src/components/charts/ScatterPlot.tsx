/** One dot per point, plain SVG; positions are layout, the values shown are the server's. The table beside it is the accessible view. */
export function ScatterPlot({ title, points, formatX, formatY, emptyText }: { title: string; points: { label: string; x: number; y: number }[]; formatX: (v: number) => string; formatY: (v: number) => string; emptyText: string }) {
  if (points.length === 0) return <p className="empty">{emptyText}</p>;
  const W = 560, H = 220, P = 40;
  const maxX = Math.max(...points.map((p) => p.x), 1e-9);
  const maxY = Math.max(...points.map((p) => p.y), 1e-9);
  return (
    <figure className="scatter">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title}; the table below lists the same values`}>
        <line x1={P} y1={H - P} x2={W - 10} y2={H - P} className="axis" />
        <line x1={P} y1={10} x2={P} y2={H - P} className="axis" />
        <text x={P} y={H - 12} className="axis-label">0</text>
        <text x={W - 10} y={H - 12} textAnchor="end" className="axis-label">{formatX(maxX)}</text>
        <text x={4} y={16} className="axis-label">{formatY(maxY)}</text>
        {points.map((p) => (
          <circle key={p.label} cx={P + (p.x / maxX) * (W - P - 10)} cy={H - P - (p.y / maxY) * (H - P - 10)} r={5} className="dot">
            <title>{`${p.label}: ${formatX(p.x)}, ${formatY(p.y)}`}</title>
          </circle>
        ))}
      </svg>
    </figure>
  );
}
