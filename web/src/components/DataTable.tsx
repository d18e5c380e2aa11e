import { useState, type ReactNode } from 'react';

export interface Column<Row> {
  key: string;
  header: string;
  /** The value sorted on; null sorts last in either direction. */
  sortValue?: (row: Row) => number | string | null;
  cell: (row: Row) => ReactNode;
  numeric?: boolean;
}

/** A table with sort headers as buttons in `<th aria-sort>`; sorting orders rows, it never computes. */
export function DataTable<Row>({ caption, columns, rows, rowKey, initialSort, onRowOpen, footer = [] }: {
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  initialSort?: { key: string; desc: boolean };
  onRowOpen?: (row: Row) => void;
  /** Rows kept under the sorted ones (a total): the server's numbers, never a sum of the rows. */
  footer?: Row[];
}) {
  const [sort, setSort] = useState(initialSort ?? null);
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
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={c.numeric ? 'num' : undefined} aria-sort={sort?.key === c.key ? (sort.desc ? 'descending' : 'ascending') : c.sortValue ? 'none' : undefined}>
                {c.sortValue ? (
                  <button type="button" onClick={() => setSort({ key: c.key, desc: sort?.key === c.key ? !sort.desc : c.numeric ?? false })}>
                    {c.header}
                    <span aria-hidden="true">{sort?.key === c.key ? (sort.desc ? ' ▼' : ' ▲') : ''}</span>
                  </button>
                ) : (
                  c.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row) => (
            <tr key={rowKey(row)} className={onRowOpen ? 'clickable' : undefined} onClick={onRowOpen ? () => onRowOpen(row) : undefined}>
              {columns.map((c, i) =>
                i === 0 ? (
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
          ))}
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
