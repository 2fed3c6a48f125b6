import { ChevronDown } from 'lucide-react';
import { DocSection } from './doc-section';

const questions = [
  {
    q: 'Does my data ever leave my network?',
    a: 'No. Models run on your own devices, so prompts, documents and answers stay on your local network.',
  },
  {
    q: 'Does Meshwork work without internet?',
    a: 'Yes. You need a connection to sign in and download models; after that your network runs fully offline.',
  },
  {
    q: 'How many devices can I connect?',
    a: 'It depends on your plan: Free allows 1 network with 2 clients, Pro 5 networks with 10 clients each, and Enterprise is unlimited.',
  },
  {
    q: 'Which models can I use?',
    a: 'Each plan includes a set of models: basic models on Free, advanced models on Pro and every model on Enterprise. Your dashboard lists yours.',
  },
  {
    q: 'Is there a free trial?',
    a: 'Yes. Create a free account to try Meshwork; no credit card required.',
  },
];

export function Faq() {
  return (
    <DocSection id="faq" title="FAQ">
      <div className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {questions.map(({ q, a }) => (
          <details key={q} className="group px-5 py-4">
            <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-medium text-slate-900 dark:text-white">
              {q}
              <ChevronDown className="size-4 shrink-0 text-slate-400 transition group-open:rotate-180" aria-hidden />
            </summary>
            <p className="mt-3 text-sm">{a}</p>
          </details>
        ))}
      </div>
    </DocSection>
  );
}
