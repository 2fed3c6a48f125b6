import { Button } from '../../../shared/ui/button';
import { DELIVERIES_PER_PAGE } from '../api/get-deliveries';
import { pageCount } from './webhook-format';

/** Newer and older pages of the log, and how many deliveries it holds. */
export function DeliveryPager({ page, count, onPage }: { page: number; count: number; onPage: (page: number) => void }) {
  const pages = Math.max(page, pageCount(count, DELIVERIES_PER_PAGE));
  if (pages <= 1) return <p className="text-sm text-slate-500 dark:text-slate-400">{count === 1 ? '1 delivery' : `${count} deliveries`}</p>;
  return (
    <nav
      aria-label="Delivery log pages"
      className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600 dark:text-slate-400"
    >
      <p>
        Page {page} of {pages} · {count} deliveries
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Newer
        </Button>
        <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Older
        </Button>
      </div>
    </nav>
  );
}
