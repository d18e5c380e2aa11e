import { Fragment, useEffect, useState, type ReactNode } from 'react';

export interface Column<Row> {
  key: string;
  header: string;
  /** Read by screen readers only (an actions column). */
  hiddenHeader?: boolean;
  /** The value sorted on; null sorts last in either direction. */
  sortValue?: (row: Row) => number | string | null;
  cell: (row: Row) => ReactNode;
  numeric?: boolean;
}

/** A table with sort headers as buttons in `<th aria-sort>`; sorting orders rows, it never computes. */
export function DataTable<Row>({ caption, columns: given, rows, rowKey, initialSort, sort: held, onSortChange, onRowOpen, footer = [], actions, rowHeaders = true, rowDetail, testId }: {
  /** Without one, the table is named by the panel or section heading around it. */
  caption?: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  initialSort?: { key: string; desc: boolean };
  /** A sort kept by the page (in its URL, say) instead of by the table; a key no column sorts on is ignored. */
  sort?: { key: string; desc?: boolean };
  onSortChange?: (sort: { key: string; desc: boolean }) => void;
  onRowOpen?: (row: Row) => void;
  /** Rows kept under the sorted ones (a total): the server's numbers, never a sum of the rows. */
  footer?: Row[];
  /** A last column of a row's actions (buttons), its header read by screen readers only. */
  actions?: (row: Row) => ReactNode;
  /** The first column's cells are row headers (`<th scope="row">`); false: plain cells. */
  rowHeaders?: boolean;
  /** A row's unfolded detail (e.g. its results), in a full-width row under it; null: folded. */
  rowDetail?: (row: Row) => ReactNode;
  testId?: string;
}) {
  const columns: Column<Row>[] = actions ? [...given, { key: 'actions', header: 'Actions', hiddenHeader: true, cell: actions }] : given;
  const heldColumn = held && columns.find((c) => c.key === held.key && c.sortValue);
  // Without a direction, a column sorts the way its header's first click would.
  const heldSort = heldColumn ? { key: heldColumn.key, desc: held.desc ?? heldColumn.numeric ?? false } : null;
  const [sort, setOwn] = useState(heldSort ?? initialSort ?? null);
  // A click shows its order at once; the page's copy (the URL) follows, and a change of it (Back, a
  // link without a sort) is shown.
  const controlled = onSortChange !== undefined;
  useEffect(() => {
    if (controlled) setOwn(heldSort ?? initialSort ?? null);
  }, [controlled, heldSort?.key, heldSort?.desc]);
  const setSort = (next: { key: string; desc: boolean }) => {
    setOwn(next);
    onSortChange?.(next);
  };
  const column = columns.find((c) => c.key === sort?.key);
  const sorted = column?.sortValue
    ? [...rows].sort((a, b) => {
        const x = column.sortValue!(a);
        const y = column.sortValue!(b);
        if (x === null && y === null) return 0;
        if (x === null) return 1;
        if (y === null) return -1;
        const order = x < y ? -1 : x > y ? 1 : 0;
        return sort!.desc ? -order : order;
      })
    : rows;
  return (
    <div className="table-wrap">
      <table data-testid={testId}>
        {caption !== undefined && <caption>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={c.numeric ? 'num' : undefined} aria-sort={sort?.key === c.key ? (sort.desc ? 'descending' : 'ascending') : c.sortValue ? 'none' : undefined}>
                {c.sortValue ? (
                  <button type="button" onClick={() => setSort({ key: c.key, desc: sort?.key === c.key ? !sort.desc : c.numeric ?? false })}>
                    {c.header}
                    <span aria-hidden="true">{sort?.key === c.key ? (sort.desc ? ' ▼' : ' ▲') : ''}</span>
                  </button>
                ) : c.hiddenHeader ? (
                  <span className="visually-hidden">{c.header}</span>
                ) : (
                  c.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row) => {
            const detail = rowDetail?.(row);
            return (
              <Fragment key={rowKey(row)}>
                <tr className={onRowOpen ? 'clickable' : undefined} onClick={onRowOpen ? () => onRowOpen(row) : undefined}>
                  {columns.map((c, i) =>
                    i === 0 && rowHeaders ? (
                      <th key={c.key} scope="row">
                        {c.cell(row)}
                      </th>
                    ) : (
                      <td key={c.key} className={c.numeric ? 'num' : undefined}>
                        {c.cell(row)}
                      </td>
                    ),
                  )}
                </tr>
                {detail != null && detail !== false && (
                  <tr>
                    <td colSpan={columns.length}>{detail}</td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
        {footer.length > 0 && (
          <tfoot>
            {footer.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((c, i) => (i === 0 ? <th key={c.key} scope="row">{c.cell(row)}</th> : <td key={c.key} className={c.numeric ? 'num' : undefined}>{c.cell(row)}</td>))}
              </tr>
            ))}
          </tfoot>
        )}
      </table>
    </div>
  );
}
