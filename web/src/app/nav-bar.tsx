import { Menu, X } from 'lucide-react';
import { useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { useSession } from '../shared/session/use-session';
import { LinkButton } from '../shared/ui/button';
import { Logo } from '../shared/ui/logo';
import { MobileMenu } from './mobile-menu';
import { primaryLinks } from './nav-links';
import { ThemeToggle } from './theme-toggle';
import { UserMenu } from './user-menu';

const linkClasses = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium transition-colors ${
    isActive ? 'text-brand-700 dark:text-brand-300' : 'text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white'
  }`;

/**
 * The bar's account corner: the only part of the bar that follows the session, so the
 * session's first answer re-renders this alone rather than the whole bar. On wide screens as
 * wide as any of its states (loading, signed out, a signed-in name), so nothing beside it
 * moves when the session arrives.
 */
function AccountActions() {
  const session = useSession();
  return (
    <div className="hidden items-center justify-end gap-2 md:flex lg:w-60">
      {session.status === 'authenticated' && <UserMenu user={session.user} />}
      {session.status === 'anonymous' && (
        <>
          <LinkButton to="/login" variant="ghost">
            Sign In
          </LinkButton>
          <LinkButton to="/register">Get Started</LinkButton>
        </>
      )}
      {session.status === 'loading' && <div className="h-9 w-32 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" />}
    </div>
  );
}

/** The top bar of spec section 2, "Navigation". */
export function NavBar() {
  const { pathname } = useLocation();
  const [mobileOpenAt, setMobileOpenAt] = useState<string | null>(null);
  // The mobile menu closes by itself on navigation: it is open only for the page it was opened on.
  const mobileOpen = mobileOpenAt === pathname;

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/80 backdrop-blur dark:border-slate-800/80 dark:bg-slate-950/80">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center gap-6 px-4 sm:px-6 lg:px-8">
        <Link to="/" className="text-slate-900 dark:text-white" aria-label="Meshwork home">
          <Logo />
        </Link>
        <ul className="hidden items-center gap-1 md:flex">
          {primaryLinks.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end={link.to === '/'} className={linkClasses}>
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="ml-auto flex items-center gap-2">
          <ThemeToggle />
          <AccountActions />
          <button
            type="button"
            className="inline-flex size-9 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 md:hidden dark:text-slate-300 dark:hover:bg-slate-800"
            aria-expanded={mobileOpen}
            aria-controls="mobile-menu"
            aria-label={mobileOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMobileOpenAt(mobileOpen ? null : pathname)}
          >
            {mobileOpen ? <X className="size-5" aria-hidden /> : <Menu className="size-5" aria-hidden />}
          </button>
        </div>
      </nav>
      {mobileOpen && <MobileMenu />}
    </header>
  );
}
