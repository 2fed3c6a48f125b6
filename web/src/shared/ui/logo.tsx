/** The Meshwork mark (five connected devices) and word. */
export function Logo({ className = '' }: { className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2 font-semibold tracking-tight ${className}`}>
      <svg viewBox="0 0 32 32" className="size-7" aria-hidden>
        <rect width="32" height="32" rx="7" fill="#1e3a5f" />
        <path d="M8 8 24 8 24 24 8 24Z M8 8 24 24 M24 8 8 24" fill="none" stroke="#7dd3fc" strokeWidth="2" />
        <g fill="#e0f2fe">
          <circle cx="8" cy="8" r="3" />
          <circle cx="24" cy="8" r="3" />
          <circle cx="8" cy="24" r="3" />
          <circle cx="24" cy="24" r="3" />
          <circle cx="16" cy="16" r="3" />
        </g>
      </svg>
      <span className="text-lg">Meshwork</span>
    </span>
  );
}
