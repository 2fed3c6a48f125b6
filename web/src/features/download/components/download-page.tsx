import { Network, ShieldCheck, WifiOff, type LucideIcon } from 'lucide-react';
import { useSession } from '../../../shared/session/use-session';
import { IconCard } from '../../../shared/ui/icon-card';
import { GetTheApp } from './get-the-app';
import { InstallationGuide } from './installation-guide';
import { LatestRelease } from './latest-release';

const highlights: { title: string; body: string; icon: LucideIcon }[] = [
  { title: 'Your devices, your network', body: 'Runs the AI models your plan includes on the computers you already own.', icon: Network },
  { title: 'Works offline', body: 'Once your models are downloaded, no internet connection is needed.', icon: WifiOff },
  { title: 'Private by design', body: 'Prompts, documents and answers never leave your local network.', icon: ShieldCheck },
];

/** /download: the desktop host, its newest release, how to install it, and the way to get it. */
export function DownloadPage() {
  // Signed-in users read the version in their download panel; once on the page is enough.
  const visitor = useSession().status === 'anonymous';
  return (
    <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 lg:px-8">
      <header className="max-w-3xl">
        <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase dark:text-brand-400">Download</p>
        <h1 className="mt-2 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl dark:text-white">Download Meshwork Desktop</h1>
        <p className="mt-5 text-lg text-slate-600 dark:text-slate-400">
          The desktop host runs your plan&apos;s AI models on your own devices and network. Install it on a Windows or Linux computer,
          connect the computers around it, and keep working even when the internet does not. (macOS is not yet available.)
        </p>
        {visitor && <LatestRelease />}
      </header>

      <ul aria-label="Why Meshwork Desktop" className="mt-12 grid gap-6 sm:grid-cols-3">
        {highlights.map((highlight) => (
          <IconCard key={highlight.title} {...highlight} heading="h2" />
        ))}
      </ul>

      <div className="mt-12 grid items-start gap-8 lg:grid-cols-2">
        <GetTheApp />
        <InstallationGuide />
      </div>
    </div>
  );
}
