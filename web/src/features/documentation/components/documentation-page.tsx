import { ApiReference } from './api-reference';
import { DocSection } from './doc-section';
import { Faq } from './faq';
import { FirstNetwork } from './first-network';
import { InstallApp } from './install-app';
import { LocalApi } from './local-api';
import { QuickStart } from './quick-start';
import { WebhooksDocs } from './webhooks-docs';

const contents = [
  { id: 'introduction', label: 'Introduction' },
  { id: 'quick-start', label: 'Quick Start' },
  { id: 'install-the-app', label: 'Install the app' },
  { id: 'your-first-network', label: 'Your first network' },
  { id: 'use-the-local-api', label: 'Use the local API' },
  { id: 'api-reference', label: 'API Reference' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'faq', label: 'FAQ' },
];

/**
 * /documentation (spec section 2): Introduction, a 5-step quick start, then the customer's first
 * hour step by step (install the app, a first network, the local API), the API reference, FAQ.
 */
export function DocumentationPage() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:px-8">
      <header className="max-w-3xl">
        <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase dark:text-brand-400">Documentation</p>
        <h1 className="mt-2 text-4xl font-bold tracking-tight text-slate-900 dark:text-white">Get started with Meshwork</h1>
      </header>
      <div className="mt-10 grid gap-10 lg:grid-cols-[14rem_1fr]">
        <nav aria-label="On this page" className="lg:sticky lg:top-24 lg:self-start">
          <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">On this page</p>
          <ul className="mt-3 space-y-1 border-l border-slate-200 dark:border-slate-800">
            {contents.map((item) => (
              <li key={item.id}>
                <a
                  href={`#${item.id}`}
                  className="-ml-px block border-l border-transparent py-1 pl-4 text-sm text-slate-600 hover:border-slate-400 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white"
                >
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="max-w-3xl">
          <DocSection id="introduction" title="Introduction">
            <p>
              Meshwork is a distributed, offline-capable AI platform. It runs large language models across the devices on your own network:
              one machine hosts a network, others join it as clients, and together they serve the models your plan includes.
            </p>
            <p>
              Because everything runs locally, your data never leaves your network, you need no internet connection once models are
              downloaded, and you add AI power simply by adding devices.
            </p>
          </DocSection>
          <QuickStart />
          <InstallApp />
          <FirstNetwork />
          <LocalApi />
          <ApiReference />
          <WebhooksDocs />
          <Faq />
        </div>
      </div>
    </div>
  );
}
