import { PUBLIC_PAGES } from '@meshwork/contracts';

export const SITE_NAME = 'Meshwork';

type PublicPage = (typeof PUBLIC_PAGES)[number];

interface PageMeta {
  /** The tab's title, and the social card's. */
  title: string;
  /** What a search result or a shared link shows under the title. */
  description: string;
}

/** Each public page's title and description: prerendered into its HTML and set by the browser on navigation. */
export const PAGE_META: Record<PublicPage, PageMeta> = {
  '/': {
    title: 'Meshwork: run AI models on your own devices',
    description: 'Run large language models on your own devices and network. Your data never leaves your building.',
  },
  '/features': {
    title: `Features · ${SITE_NAME}`,
    description: 'Private, offline AI across your machines: models split over your devices, live plan entitlements, no data sent out.',
  },
  '/pricing': {
    title: `Pricing · ${SITE_NAME}`,
    description: 'Free, Pro and Enterprise plans for running AI on your own hardware. Start free; pay monthly or yearly.',
  },
  '/documentation': {
    title: `Documentation · ${SITE_NAME}`,
    description: 'Install the Meshwork desktop app, create your first network of devices and call your models through the local API.',
  },
  '/download': {
    title: `Download · ${SITE_NAME}`,
    description: "Download Meshwork Desktop for Windows or Linux and run your plan's AI models on your own devices.",
  },
  '/contact': {
    title: `Contact Sales · ${SITE_NAME}`,
    description: 'Talk to us about Meshwork Enterprise: unlimited devices, every model, and support for your team.',
  },
  '/login': { title: `Sign In · ${SITE_NAME}`, description: 'Sign in to your Meshwork account.' },
  '/register': {
    title: `Create your account · ${SITE_NAME}`,
    description: 'Create a free Meshwork account and run AI models on your own devices.',
  },
  '/terms': { title: `Terms of Service · ${SITE_NAME}`, description: 'The terms for using Meshwork.' },
  '/privacy': {
    title: `Privacy Policy · ${SITE_NAME}`,
    description: 'How Meshwork handles your data: what it keeps, and what never leaves your network.',
  },
};

/** The title for a path: a public page's own, otherwise the site's name. */
export function titleOf(pathname: string): string {
  const page = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (PAGE_META as Record<string, PageMeta | undefined>)[page]?.title ?? SITE_NAME;
}
