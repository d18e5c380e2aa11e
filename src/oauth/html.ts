const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function htmlEscape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}
