/** Placeholder landing page until the marketing pages (spec section 2, "Public") are built. */
export function LandingPage() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', padding: '0 1rem' }}>
      <h1>Meshwork</h1>
      <p>Run large language models on your own devices. Your data never leaves your network.</p>
      <ul>
        {/* Plain anchors, not router links: both targets live outside this single-page app. */}
        <li>
          <a href="/admin/">Staff console</a>
        </li>
        <li>
          <a href="/api/v1/health/system-status/">System status</a>
        </li>
      </ul>
    </main>
  );
}
