import { useState } from 'react';
import { ContactForm } from './contact-form';
import { EnterpriseSummary } from './enterprise-summary';
import { InquirySent } from './inquiry-sent';

/** /contact, the pricing page's Contact Sales: a message to the sales team, mailed by the api. */
export function ContactPage() {
  const [confirmation, setConfirmation] = useState<string | null>(null);
  return (
    <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 lg:px-8">
      <header className="max-w-3xl">
        <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase dark:text-brand-400">Enterprise</p>
        <h1 className="mt-2 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl dark:text-white">Contact Sales</h1>
        <p className="mt-5 text-lg text-slate-600 dark:text-slate-400">
          Enterprise is for organisations that want Meshwork at their full scale: across all their sites and devices, working with the
          systems they already run, and with our team beside them while they roll it out. Tell us what you need and we will get back to you.
        </p>
      </header>

      <div className="mt-12 grid items-start gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        {confirmation === null ? <ContactForm onSent={setConfirmation} /> : <InquirySent confirmation={confirmation} />}
        <EnterpriseSummary />
      </div>
    </div>
  );
}
