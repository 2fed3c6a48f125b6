import { useId, useState, type ComponentPropsWithRef, type ReactNode } from 'react';
import { Eye, EyeOff } from 'lucide-react';

/** What every labelled field shows around its control. */
interface FieldText {
  label: string;
  /** Shown under the control and linked to it with aria-describedby; marks the control invalid. */
  error?: string;
  hint?: ReactNode;
  /** Beside the label, e.g. a "Forgot password?" link. */
  labelAside?: ReactNode;
}

export interface TextFieldProps extends FieldText, ComponentPropsWithRef<'input'> {
  /** Inside the input's right edge, e.g. a show-password button. */
  trailing?: ReactNode;
}

export type TextAreaFieldProps = FieldText & ComponentPropsWithRef<'textarea'>;

/** The attributes that tie a control to its frame's label, hint and error. */
interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  /** The look shared by inputs and text areas, red when invalid; callers add their size. */
  className: string;
}

const controlClasses =
  'block w-full rounded-lg border bg-white px-3 text-sm text-slate-900 shadow-sm transition placeholder:text-slate-400 focus:outline-none focus:ring-2 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-500';

const validBorder = 'border-slate-300 focus:border-brand-500 focus:ring-brand-500/30 dark:border-slate-700';
const invalidBorder = 'border-red-500 focus:border-red-500 focus:ring-red-500/30 dark:border-red-400';

/** The label above a control and the hint and error under it, announced with it. */
function FieldFrame({
  label,
  error,
  hint,
  labelAside,
  id,
  className,
  children,
}: FieldText & { id?: string; className?: string; children: (control: ControlProps) => ReactNode }) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  const errorId = `${controlId}-error`;
  const hintId = `${controlId}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;

  return (
    <div className={className}>
      <div className="mb-1.5 flex items-center justify-between gap-2">
        <label htmlFor={controlId} className="text-sm font-medium text-slate-700 dark:text-slate-200">
          {label}
        </label>
        {labelAside}
      </div>
      {children({
        id: controlId,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy,
        className: `${controlClasses} ${error ? invalidBorder : validBorder}`,
      })}
      {hint && (
        <p id={hintId} className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1.5 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled input whose error text is announced with it. */
export function TextField({ label, error, hint, labelAside, trailing, id, className, ...input }: TextFieldProps) {
  return (
    <FieldFrame label={label} error={error} hint={hint} labelAside={labelAside} id={id} className={className}>
      {(control) => (
        <div className="relative">
          <input {...control} className={`${control.className} h-10 ${trailing ? 'pr-10' : ''}`} {...input} />
          {trailing && <div className="absolute inset-y-0 right-0 flex items-center pr-1">{trailing}</div>}
        </div>
      )}
    </FieldFrame>
  );
}

/** A labelled multi-line input for free text, e.g. a message. */
export function TextAreaField({ label, error, hint, labelAside, id, className, rows = 5, ...textarea }: TextAreaFieldProps) {
  return (
    <FieldFrame label={label} error={error} hint={hint} labelAside={labelAside} id={id} className={className}>
      {(control) => <textarea {...control} rows={rows} className={`${control.className} resize-y py-2`} {...textarea} />}
    </FieldFrame>
  );
}

/** A TextField for passwords with a button that shows what was typed. */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'trailing'>) {
  const [visible, setVisible] = useState(false);
  const Icon = visible ? EyeOff : Eye;
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      trailing={
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? `Hide ${props.label.toLowerCase()}` : `Show ${props.label.toLowerCase()}`}
          aria-pressed={visible}
          className="rounded-md p-1.5 text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-100"
        >
          <Icon className="size-4" aria-hidden />
        </button>
      }
    />
  );
}
