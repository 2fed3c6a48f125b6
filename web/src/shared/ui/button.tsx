import type { ComponentPropsWithRef } from 'react';
import { Link, type LinkProps } from 'react-router';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost';
export type ButtonSize = 'sm' | 'md' | 'lg';

interface ButtonLook {
  variant?: ButtonVariant;
  size?: ButtonSize;
  fullWidth?: boolean;
}

const variantClasses: Record<ButtonVariant, string> = {
  primary: 'bg-brand-600 text-white shadow-sm hover:bg-brand-700 dark:bg-brand-500 dark:text-slate-950 dark:hover:bg-brand-400',
  secondary:
    'border border-slate-300 bg-white text-slate-800 shadow-sm hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800',
  ghost: 'text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white',
};

const sizeClasses: Record<ButtonSize, string> = {
  sm: 'h-8 px-3 text-sm',
  md: 'h-10 px-4 text-sm',
  lg: 'h-12 px-6 text-base',
};

/** The classes of a button, for elements that are links but look like buttons. */
export function buttonClasses({ variant = 'primary', size = 'md', fullWidth = false }: ButtonLook = {}, extra = ''): string {
  return [
    'inline-flex items-center justify-center gap-2 rounded-lg font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-60',
    variantClasses[variant],
    sizeClasses[size],
    fullWidth ? 'w-full' : '',
    extra,
  ]
    .filter(Boolean)
    .join(' ');
}

export function Button({ variant, size, fullWidth, className, type = 'button', ...props }: ButtonLook & ComponentPropsWithRef<'button'>) {
  return <button type={type} className={buttonClasses({ variant, size, fullWidth }, className)} {...props} />;
}

export function LinkButton({ variant, size, fullWidth, className, ...props }: ButtonLook & LinkProps) {
  return <Link className={buttonClasses({ variant, size, fullWidth }, typeof className === 'string' ? className : '')} {...props} />;
}
