import type { LucideIcon } from 'lucide-react';

/** A marketing card: an icon, a title and a line or two, as list items in a grid. */
export function IconCard({
  icon: Icon,
  title,
  body,
  heading: Heading,
}: {
  icon: LucideIcon;
  title: string;
  body: string;
  heading: 'h2' | 'h3';
}) {
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md dark:border-slate-800 dark:bg-slate-900">
      <span className="flex size-11 items-center justify-center rounded-xl bg-brand-600 text-white dark:bg-brand-500 dark:text-slate-950">
        <Icon className="size-6" aria-hidden />
      </span>
      <Heading className="mt-5 text-lg font-semibold text-slate-900 dark:text-white">{title}</Heading>
      <p className="mt-2 text-sm leading-6 text-slate-600 dark:text-slate-400">{body}</p>
    </li>
  );
}
