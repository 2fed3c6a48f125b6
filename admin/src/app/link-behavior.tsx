import { type AnchorHTMLAttributes, forwardRef } from 'react';
import { Link, type To } from 'react-router';

type LinkBehaviorProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to?: To };

/**
 * What MUI renders for a button that is a link. react-admin's `<Button to="…">` hands `to` to
 * MUI, which would otherwise write it onto a bare <a> (no href: the button would go nowhere);
 * here `to` becomes a router link inside the console, and `href` stays a plain anchor.
 */
export const LinkBehavior = forwardRef<HTMLAnchorElement, LinkBehaviorProps>(function LinkBehavior({ to, href, ...props }, ref) {
  return to === undefined ? <a ref={ref} href={href} {...props} /> : <Link ref={ref} to={to} {...props} />;
});
