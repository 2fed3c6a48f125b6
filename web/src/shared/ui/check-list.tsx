import { Check } from 'lucide-react';

/** Lines with a green tick each, e.g. what a plan includes. */
export function CheckList({ items, className = '' }: { items: readonly string[]; className?: string }) {
  return (
    <ul className={`space-y-3 text-sm text-slate-700 dark:text-slate-300 ${className}`}>
      {items.map((item) => (
        <li key={item} className="flex gap-2.5">
          <Check className="mt-0.5 size-4 shrink-0 text-green-600 dark:text-green-400" aria-hidden />
          {item}
        </li>
      ))}
    </ul>
  );
}
