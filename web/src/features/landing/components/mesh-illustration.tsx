import { Laptop, Monitor, Server } from 'lucide-react';

// Each load as a class of its own: a style attribute in the prerendered page would break the site's style policy.
const devices = [
  { name: 'Office workstation', role: 'Host', icon: Monitor, load: 'w-[72%]' },
  { name: 'Design laptop', role: 'Client', icon: Laptop, load: 'w-[48%]' },
  { name: 'Back-room server', role: 'Client', icon: Server, load: 'w-[86%]' },
];

/** A picture of a small network sharing one model; decorative, so hidden from screen readers. */
export function MeshIllustration() {
  return (
    <div aria-hidden className="relative mx-auto w-full max-w-lg">
      <div className="absolute -inset-4 -z-10 rounded-3xl bg-gradient-to-tr from-brand-500/20 via-transparent to-indigo-500/20 blur-2xl" />
      <div className="rounded-2xl border border-slate-200 bg-white/90 p-6 shadow-xl dark:border-slate-800 dark:bg-slate-900/90">
        <div className="flex items-center justify-between">
          <div>
            <p className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">Network</p>
            <p className="font-semibold text-slate-900 dark:text-white">Head office</p>
          </div>
          <span className="inline-flex items-center gap-1.5 rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-medium text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300">
            <span className="size-1.5 rounded-full bg-emerald-500" /> Offline ready
          </span>
        </div>
        <div className="mt-5 rounded-xl bg-slate-50 p-4 dark:bg-slate-800/60">
          <p className="text-xs text-slate-500 dark:text-slate-400">Model</p>
          <p className="font-mono text-sm text-slate-900 dark:text-white">llama3_1_8b_fp16</p>
          <div className="mt-3 flex gap-1">
            {Array.from({ length: 24 }, (_, i) => (
              <span
                key={i}
                className={`h-2 flex-1 rounded-sm ${i % 3 === 0 ? 'bg-indigo-400' : i % 3 === 1 ? 'bg-brand-400' : 'bg-emerald-400'}`}
              />
            ))}
          </div>
          <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">Layers split across 3 devices</p>
        </div>
        <ul className="mt-5 space-y-3">
          {devices.map(({ name, role, icon: Icon, load }) => (
            <li key={name} className="flex items-center gap-3">
              <span className="flex size-9 items-center justify-center rounded-lg bg-brand-50 text-brand-700 dark:bg-brand-900/50 dark:text-brand-300">
                <Icon className="size-5" />
              </span>
              <div className="min-w-0 flex-1">
                <div className="flex justify-between text-sm">
                  <span className="truncate font-medium text-slate-800 dark:text-slate-200">{name}</span>
                  <span className="text-slate-500 dark:text-slate-400">{role}</span>
                </div>
                <div className="mt-1.5 h-1.5 rounded-full bg-slate-100 dark:bg-slate-800">
                  <div className={`h-1.5 rounded-full bg-brand-500 ${load}`} />
                </div>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
