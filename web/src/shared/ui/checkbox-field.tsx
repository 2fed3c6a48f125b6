import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';

export interface CheckboxFieldProps extends Omit<ComponentPropsWithRef<'input'>, 'type'> {
  label: ReactNode;
  error?: string;
}

/** A checkbox with its label beside it and its error linked for screen readers. */
export function CheckboxField({ label, error, id, className, ...input }: CheckboxFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = `${inputId}-error`;
  return (
    <div className={className}>
      <div className="flex items-start gap-2.5">
        <input
          id={inputId}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-brand-600 dark:border-slate-600"
          {...input}
        />
        <label htmlFor={inputId} className="text-sm text-slate-600 dark:text-slate-300">
          {label}
        </label>
      </div>
      {error && (
        <p id={errorId} className="mt-1.5 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
