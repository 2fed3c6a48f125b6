/**
 * The nonce the server gave this page (its Content-Security-Policy allows <style> elements
 * that carry it), read from the meta tag Vite's `html.cspNonce` adds. The property, not the
 * attribute: browsers hide nonce attributes from scripts once the page has loaded.
 */
export const cspNonce: string | undefined = document.querySelector<HTMLMetaElement>('meta[property=csp-nonce]')?.nonce || undefined;
