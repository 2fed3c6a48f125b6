import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DocSection } from './doc-section';

const linkClasses = 'font-medium text-brand-700 hover:underline dark:text-brand-300';

/** The five steps from sign-up to a working network. */
export function QuickStart() {
  return (
    <DocSection id="quick-start" title="Quick Start">
      <ol className="space-y-5">
        <Step n={1} title="Choose a plan">
          Start on the free plan or compare Pro and Enterprise on the{' '}
          <Link to="/pricing" className={linkClasses}>
            pricing page
          </Link>
          . Your plan sets how many networks, clients per network and models you get.
        </Step>
        <Step n={2} title="Download the desktop app">
          Sign in and open your{' '}
          <Link to="/dashboard" className={linkClasses}>
            dashboard
          </Link>{' '}
          to download the Meshwork desktop app for Windows or Linux, and{' '}
          <a href="#install-the-app" className={linkClasses}>
            install it
          </a>
          .
        </Step>
        <Step n={3} title="Download a model">
          In the desktop app, under Models, pick one of the models your plan includes. It is downloaded once and then runs locally.
        </Step>
        <Step n={4} title="Create a network">
          On the host machine, create a network, give it a name and choose the model it serves.
        </Step>
        <Step n={5} title="Connect client machines">
          Install the app on your other computers and{' '}
          <a href="#your-first-network" className={linkClasses}>
            join them to the network
          </a>
          . They share the work, and nothing leaves your local network.
        </Step>
      </ol>
    </DocSection>
  );
}

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-4">
      <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white dark:bg-brand-500 dark:text-slate-950">
        {n}
      </span>
      <div>
        <h3 className="font-semibold text-slate-900 dark:text-white">{title}</h3>
        <p className="mt-1">{children}</p>
      </div>
    </li>
  );
}
