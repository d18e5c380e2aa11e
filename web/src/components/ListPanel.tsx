import type { ReactNode } from 'react';
import type { ListMeta } from '../api/contract';
import { DataTable, type Column } from './DataTable';
import { Pager } from './Pager';
import { Panel, type QueryState } from './states';

/**
 * A panel of a list from the general API (`{data: [...], meta}`): loading, error and stale states
 * (Panel), the rows as a DataTable, a pager over `meta` when the page is given `onPage`, and what
 * an empty list says. The settings pages' lists are all this.
 */
export function ListPanel<Row, Meta extends object>({
  title,
  id,
  query,
  height,
  columns,
  rowKey,
  empty,
  onPage,
  intro,
  actions,
  rowHeaders,
  rowDetail,
}: {
  title: string;
  id: string;
  query: QueryState & { data?: { data: Row[]; meta: Meta } };
  height?: number;
  columns: Column<Row>[];
  /** A last column of a row's actions, its header read by screen readers only. */
  actions?: (row: Row) => ReactNode;
  rowKey: (row: Row) => string;
  /** What an empty list says; without it, an empty list is a table without rows. */
  empty?: ReactNode;
  /** Pages through a paged list (`meta` of `{page, perPage, total}`). */
  onPage?: Meta extends ListMeta ? (page: number) => void : never;
  /** Said above the table when there are rows. */
  intro?: ReactNode;
  rowHeaders?: boolean;
  rowDetail?: (row: Row) => ReactNode;
}) {
  return (
    <Panel title={title} id={id} query={query} height={height}>
      {() => {
        const answer = query.data;
        if (!answer) return null;
        if (answer.data.length === 0 && empty !== undefined) {
          return (
            <p className="empty" data-testid="empty">
              {empty}
            </p>
          );
        }
        return (
          <>
            {intro}
            <DataTable columns={columns} actions={actions} rows={answer.data} rowKey={rowKey} rowHeaders={rowHeaders} rowDetail={rowDetail} />
            {onPage && <Pager meta={answer.meta as ListMeta} onPage={onPage} />}
          </>
        );
      }}
    </Panel>
  );
}
