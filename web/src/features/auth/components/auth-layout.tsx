import type { ReactNode } from 'react';
import { Card } from '../../../shared/ui/card';

interface AuthLayoutProps {
  title: string;
  description?: ReactNode;
  /** Under the card, e.g. "Don't have an account? Sign up". */
  footer?: ReactNode;
  children: ReactNode;
}

/** The centred card every sign-in and password page sits in. */
export function AuthLayout({ title, description, footer, children }: AuthLayoutProps) {
  return (
    <div className="relative flex min-h-[calc(100vh-4rem)] items-start justify-center overflow-hidden px-4 py-12 sm:items-center">
      <div
        aria-hidden
        className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-80 bg-gradient-to-b from-brand-50 to-transparent dark:from-brand-900/30"
      />
      <div className="w-full max-w-md">
        <Card className="p-8">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">{title}</h1>
          {description && <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{description}</p>}
          <div className="mt-8">{children}</div>
        </Card>
        {footer && <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-400">{footer}</p>}
      </div>
    </div>
  );
}

export const textLinkClasses =
  'font-medium text-brand-700 hover:text-brand-600 hover:underline dark:text-brand-300 dark:hover:text-brand-400';
