/**
 * Forms show the API's answer where it belongs: a `details[].path` error under its field (tied by
 * aria-describedby, the field aria-invalid), anything else in one alert above the form; after a
 * failed submit the first invalid field takes the focus.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { ErrorMessage } from './states';

export interface FormErrors {
  /** The message for a field, when the API named it. */
  field: (path: string) => string | undefined;
  /** The error no field shows (wrong role, conflict, network…), or null. */
  general: ApiError | Error | null;
}

export function formErrors(error: unknown, fields: readonly string[]): FormErrors {
  const api = error instanceof ApiError ? error : null;
  // A field's own path, or an item of it ("projects.2" belongs to the projects field).
  const owner = (path: string) => fields.find((f) => path === f || path.startsWith(`${f}.`));
  const matched = api?.details.filter((d) => owner(d.path) !== undefined) ?? [];
  const field = (path: string) => {
    const mine = matched.filter((d) => owner(d.path) === path);
    return mine.length ? [...new Set(mine.map((d) => d.message))].join('; ') : undefined;
  };
  const general = error instanceof Error && (!api || matched.length === 0) ? error : null;
  return { field, general };
}

/** The ids and aria attributes that tie an input to its label and its error. */
export function fieldProps(form: string, name: string, errors: FormErrors) {
  const id = `${form}-${name}`;
  const message = errors.field(name);
  return { id, name, 'aria-invalid': message ? true : undefined, 'aria-describedby': `${id}-error` } as const;
}

/**
 * `invalid`: what this field needs, in the page's words ("Give the key a name of at most 100
 * characters."), shown instead of the server's generic sentence whenever the server refuses it.
 */
export function Field({ form, name, label, errors, hint, invalid, children }: { form: string; name: string; label: string; errors: FormErrors; hint?: string; invalid?: string; children: ReactNode }) {
  const id = `${form}-${name}`;
  const refused = errors.field(name);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && <p className="hint">{hint}</p>}
      <p id={`${id}-error`} className="field-error">
        {refused && (invalid ?? refused)}
      </p>
    </div>
  );
}

export function FormAlert({ errors, listDetails = true }: { errors: FormErrors; listDetails?: boolean }) {
  if (!errors.general) return null;
  return (
    <div role="alert" className="error-note">
      <ErrorMessage error={errors.general} listDetails={listDetails} />
    </div>
  );
}

/** A form's errors from a change's error, and the form ref that moves focus to the first invalid field. */
export function useFormErrors(error: unknown, fields: readonly string[]) {
  return { errors: formErrors(error, fields), form: useFocusFirstInvalid(error) };
}

/** Moves the focus to the first invalid field of the form when an error arrives. */
export function useFocusFirstInvalid(error: unknown) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (error) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [error]);
  return form;
}

/** The header of a table's last column of row buttons: named for screen readers, blank on screen. */
export function ActionsHeader() {
  return (
    <th scope="col">
      <span className="visually-hidden">Actions</span>
    </th>
  );
}

/**
 * A destructive action asks once more, inline (no window.confirm: it blocks the page and is hidden
 * from assistive technology in some browsers).
 */
export function ConfirmButton({ label, confirmLabel, question, onConfirm, disabled }: { label: string; confirmLabel: string; question: string; onConfirm: () => void; disabled?: boolean }) {
  const [asking, setAsking] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirm.current?.focus();
  }, [asking]);
  if (!asking)
    return (
      <button type="button" onClick={() => setAsking(true)} disabled={disabled}>
        {label}
      </button>
    );
  return (
    <span className="confirm" role="group" aria-label={question}>
      <span>{question}</span>{' '}
      <button
        ref={confirm}
        type="button"
        className="danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>{' '}
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

/** Copies a secret or link shown once; says when it worked (or that the browser refused). */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <>
      <button
        type="button"
        onClick={() => {
          navigator.clipboard.writeText(text).then(
            () => setState('copied'),
            () => setState('failed'),
          );
        }}
      >
        {label}
      </button>
      <span role="status" className="muted">
        {state === 'copied' ? ' Copied.' : state === 'failed' ? ' The browser refused; select the text and copy it.' : ''}
      </span>
    </>
  );
}
