/** Previous/next over a general-API list (`meta.page`, `perPage`, `total`). */
export function Pager({ meta, onPage }: { meta: { page: number; perPage: number; total: number }; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(meta.total / meta.perPage));
  if (pages === 1) return null;
  return (
    <nav aria-label="Pages" className="form-row">
      <button type="button" disabled={meta.page <= 1} onClick={() => onPage(meta.page - 1)}>
        Previous
      </button>
      <span>
        Page {meta.page} of {pages}
      </span>
      <button type="button" disabled={meta.page >= pages} onClick={() => onPage(meta.page + 1)}>
        Next
      </button>
    </nav>
  );
}
