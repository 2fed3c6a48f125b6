import { MailCheck } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { LinkButton } from '../../../shared/ui/button';
import { RegionCard } from '../../../shared/ui/region-card';

/** Takes the form's place once sales has the message. */
export function InquirySent({ confirmation }: { confirmation: string }) {
  const confirmationRef = useRef<HTMLParagraphElement>(null);
  // The button that had focus is gone with the form: move focus here so the confirmation is read out.
  useEffect(() => confirmationRef.current?.focus(), []);
  return (
    <RegionCard title="Message sent">
      <div className="flex items-start gap-3">
        <MailCheck className="size-6 shrink-0 text-brand-600 dark:text-brand-400" aria-hidden />
        <p ref={confirmationRef} tabIndex={-1} className="text-slate-700 focus:outline-none dark:text-slate-300">
          {confirmation}
        </p>
      </div>
      <LinkButton to="/pricing" variant="secondary" className="mt-6">
        Back to Pricing
      </LinkButton>
    </RegionCard>
  );
}
