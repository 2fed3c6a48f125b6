import { Link } from 'react-router';
import { useSession } from '../shared/session/use-session';
import { Logo } from '../shared/ui/logo';

interface FooterLink {
  to: string;
  label: string;
}

/** A visitor's account links, and a signed-in user's: nobody signed in is offered Sign In. */
const visitorLinks: FooterLink[] = [
  { to: '/login', label: 'Sign In' },
  { to: '/register', label: 'Create Account' },
  { to: '/dashboard', label: 'Dashboard' },
];
const signedInLinks: FooterLink[] = [
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/profile', label: 'Profile' },
  { to: '/billing', label: 'Billing' },
];

const columns: { title: string; links: FooterLink[] | 'account' }[] = [
  {
    title: 'Product',
    links: [
      { to: '/features', label: 'Features' },
      { to: '/pricing', label: 'Pricing' },
      { to: '/download', label: 'Download' },
      { to: '/documentation', label: 'Documentation' },
      { to: '/contact', label: 'Contact Sales' },
    ],
  },
  { title: 'Account', links: 'account' },
  {
    title: 'Legal',
    links: [
      { to: '/terms', label: 'Terms of Service' },
      { to: '/privacy', label: 'Privacy Policy' },
    ],
  },
];

const linkClasses = 'text-sm text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white';

function FooterLinks({ links }: { links: FooterLink[] }) {
  return (
    <ul className="mt-3 space-y-2">
      {links.map((link) => (
        <li key={link.to}>
          <Link to={link.to} className={linkClasses}>
            {link.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * The account column follows the session, on its own so the session's first answer re-renders it
 * alone. The prerendered pages, and a session still loading, show the visitor's links.
 */
function AccountLinks() {
  const session = useSession();
  return <FooterLinks links={session.status === 'authenticated' ? signedInLinks : visitorLinks} />;
}

export function Footer() {
  return (
    <footer className="border-t border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-950">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-5 lg:px-8">
        <div className="md:col-span-2">
          <Logo className="text-slate-900 dark:text-white" />
          <p className="mt-3 max-w-xs text-sm text-slate-600 dark:text-slate-400">
            Run large language models on your own devices. Your data never leaves your network.
          </p>
        </div>
        {columns.map((column) => (
          <div key={column.title}>
            <h2 className="text-sm font-semibold text-slate-900 dark:text-white">{column.title}</h2>
            {column.links === 'account' ? <AccountLinks /> : <FooterLinks links={column.links} />}
          </div>
        ))}
      </div>
      <div className="border-t border-slate-200 py-6 text-center text-xs text-slate-500 dark:border-slate-800 dark:text-slate-500">
        © {new Date().getFullYear()} Meshwork. All rights reserved.
      </div>
    </footer>
  );
}
