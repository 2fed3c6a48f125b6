import { NavLink } from 'react-router';
import { useSession } from '../shared/session/use-session';
import { LinkButton } from '../shared/ui/button';
import { primaryLinks } from './nav-links';
import { useSignOut } from './use-sign-out';
import { displayName } from './user-menu';

const itemClasses = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-2 text-base font-medium ${
    isActive
      ? 'bg-slate-100 text-slate-900 dark:bg-slate-800 dark:text-white'
      : 'text-slate-700 hover:bg-slate-50 dark:text-slate-300 dark:hover:bg-slate-900'
  }`;

/** The navigation for narrow screens: the same links and account actions as the bar. */
export function MobileMenu() {
  const session = useSession();
  const { signOut, pending } = useSignOut();
  return (
    <div id="mobile-menu" className="border-t border-slate-200 px-4 pt-2 pb-4 md:hidden dark:border-slate-800">
      <ul className="space-y-1">
        {primaryLinks.map((link) => (
          <li key={link.to}>
            <NavLink to={link.to} end={link.to === '/'} className={itemClasses}>
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
      <div className="mt-3 border-t border-slate-200 pt-3 dark:border-slate-800">
        {session.status === 'authenticated' ? (
          <ul className="space-y-1">
            <li className="px-3 pb-1 text-sm text-slate-500 dark:text-slate-400">{displayName(session.user)}</li>
            <li>
              <NavLink to="/dashboard" className={itemClasses}>
                Dashboard
              </NavLink>
            </li>
            <li>
              <NavLink to="/networks" className={itemClasses}>
                Networks
              </NavLink>
            </li>
            <li>
              <NavLink to="/profile" className={itemClasses}>
                Profile
              </NavLink>
            </li>
            {session.user.is_staff && (
              <li>
                <a href="/admin/" className={itemClasses({ isActive: false })}>
                  Admin Panel
                </a>
              </li>
            )}
            <li>
              <button type="button" onClick={signOut} disabled={pending} className={`${itemClasses({ isActive: false })} w-full text-left`}>
                Sign Out
              </button>
            </li>
          </ul>
        ) : (
          <div className="grid grid-cols-2 gap-2">
            <LinkButton to="/login" variant="secondary">
              Sign In
            </LinkButton>
            <LinkButton to="/register">Get Started</LinkButton>
          </div>
        )}
      </div>
    </div>
  );
}
