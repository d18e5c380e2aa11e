import type { ReactNode } from 'react';
import { errorOf } from '../api/client';

/**
 * The file name of a Content-Disposition header: RFC 5987's `filename*=UTF-8''…` when the server
 * sent one (names outside Latin-1), else the quoted `filename="…"` with its escapes undone.
 */
function fileName(disposition: string | null, fallback: string): string {
  const extended = /filename\*=UTF-8''([^;\s]+)/i.exec(disposition ?? '')?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended);
    } catch {
      // A malformed escape: the plain name below.
    }
  }
  const quoted = /filename="((?:[^"\\]|\\.)*)"/.exec(disposition ?? '')?.[1];
  return quoted === undefined ? fallback : quoted.replace(/\\(.)/g, '$1');
}

/**
 * A link to an export that the page fetches itself: a refusal (a date in the future) is said on the
 * page instead of opening the server's JSON error as a file; an answer is saved byte for byte
 * under the server's file name. Without script, the plain link still downloads.
 */
export function DownloadLink({ href, onResult, children, testId }: { href: string; onResult: (error: unknown) => void; children: ReactNode; testId?: string }) {
  return (
    <a
      href={href}
      download
      data-testid={testId}
      onClick={(event) => {
        event.preventDefault();
        void save(href).then(
          () => onResult(null),
          (error: unknown) => onResult(error),
        );
      }}
    >
      {children}
    </a>
  );
}

async function save(href: string): Promise<void> {
  const res = await fetch(href, { credentials: 'same-origin' });
  if (!res.ok) throw await errorOf(res);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName(res.headers.get('content-disposition'), 'export');
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
