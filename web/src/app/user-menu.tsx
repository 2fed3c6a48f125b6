import type { User } from '@meshwork/contracts';
import { ChevronDown, LayoutDashboard, LogOut, Network, ShieldCheck, UserRound } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { useSignOut } from './use-sign-out';

/** The username, or the email when there is no username (spec section 2, Navigation). */
export function displayName(user: Pick<User, 'username' | 'email'>): string {
  return user.username.trim() || user.email;
}

const itemClasses =
  'flex w-full items-center gap-2.5 rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 focus:bg-slate-100 focus:outline-none dark:text-slate-200 dark:hover:bg-slate-800 dark:focus:bg-slate-800';

/** Dashboard, Networks, Profile, Admin Panel (staff) and Sign Out, behind a button showing who is signed in. */
export function UserMenu({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const { signOut, pending } = useSignOut();
  const name = displayName(user);

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const closeOnOutsideClick = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', closeOnOutsideClick);
    return () => document.removeEventListener('mousedown', closeOnOutsideClick);
  }, [open]);

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      setOpen(false);
      buttonRef.current?.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items[(index + step + items.length) % items.length]?.focus();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  }

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
        className="flex items-center gap-2 rounded-lg py-1 pr-2 pl-1 text-sm font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        <span className="flex size-7 items-center justify-center rounded-full bg-brand-100 text-xs font-semibold text-brand-700 uppercase dark:bg-brand-900 dark:text-brand-300">
          {name.charAt(0)}
        </span>
        <span className="max-w-40 truncate">{name}</span>
        <ChevronDown className="size-4 text-slate-400" aria-hidden />
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label="Account"
          onKeyDown={onMenuKeyDown}
          className="absolute right-0 z-50 mt-2 w-56 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <div className="border-b border-slate-100 px-3 pt-1.5 pb-2.5 text-xs text-slate-500 dark:border-slate-800 dark:text-slate-400">
            Signed in as <span className="block truncate font-medium text-slate-800 dark:text-slate-200">{user.email}</span>
          </div>
          <div className="pt-1">
            <Link role="menuitem" to="/dashboard" className={itemClasses} onClick={() => setOpen(false)}>
              <LayoutDashboard className="size-4" aria-hidden /> Dashboard
            </Link>
            <Link role="menuitem" to="/networks" className={itemClasses} onClick={() => setOpen(false)}>
              <Network className="size-4" aria-hidden /> Networks
            </Link>
            <Link role="menuitem" to="/profile" className={itemClasses} onClick={() => setOpen(false)}>
              <UserRound className="size-4" aria-hidden /> Profile
            </Link>
            {user.is_staff && (
              // A plain link: the staff console is a separate app served under /admin/.
              <a role="menuitem" href="/admin/" className={itemClasses}>
                <ShieldCheck className="size-4" aria-hidden /> Admin Panel
              </a>
            )}
            <button role="menuitem" type="button" className={itemClasses} onClick={signOut} disabled={pending}>
              <LogOut className="size-4" aria-hidden /> Sign Out
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
